// Makes tool calls comparable across formats: a family per tool (Bash ≈ shell ≈ run_shell_command) and its main argument.

const FAMILIES: Array<[string, RegExp]> = [
  ['shell', /^(bash|shell|shell_command|exec_command|local_shell|run_shell_command|run_terminal_cmd|execute_command|terminal|container\.exec)$/i],
  ['read', /^(read|read_file|read_many_files|view|view_file|open_file|cat|notebookread)$/i],
  ['edit', /^(edit|multiedit|multi_edit|str_replace|str_replace_editor|str_replace_based_edit_tool|replace|edit_file|apply_patch|patch|notebookedit)$/i],
  ['write', /^(write|write_file|create_file)$/i],
  ['search', /^(grep|glob|search|search_files|search_file_content|find|find_files|ls|list|list_directory|list_dir|codebase_search|file_search|rg)$/i],
  ['web', /^(webfetch|web_fetch|websearch|web_search|google_web_search|fetch|browse)$/i],
  ['todo', /^(todowrite|todo_write|write_todos|update_plan|todo)$/i],
  ['agent', /^(task|agent|spawn_agent|sub_?agent|delegate(_task)?|dispatch_agent|run_agent|launch_agent)$/i],
];

export function toolFamily(name: string): string {
  for (const [family, pattern] of FAMILIES) if (pattern.test(name)) return family;
  return name.toLowerCase();
}

const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'absolute_path', 'file', 'filename', 'target_file'];
const TARGET_KEYS: Record<string, string[]> = {
  shell: ['command', 'cmd', 'commands', 'script'],
  read: PATH_KEYS,
  edit: PATH_KEYS,
  write: PATH_KEYS,
  search: ['pattern', 'query', 'regex', 'glob', 'path', 'dir_path'],
  web: ['url', 'query', 'prompt'],
  agent: ['description', 'message', 'prompt', 'agent_type', 'subagent_type'],
};
const GENERIC_KEYS = ['command', 'cmd', ...PATH_KEYS, 'pattern', 'query', 'url', 'description'];
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** `["bash", "-lc", "cargo test"]` is the command `cargo test`; other argv arrays join with spaces. */
function commandText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return null;
  const argv = value as string[];
  if (argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0] as string) && /^-l?c$/.test(argv[1] as string)) return argv[2] as string;
  return argv.join(' ');
}

/** Paths inside the project are shown relative to it, so absolute (Claude Code) and relative (Codex) paths meet. */
export function relativePath(path: string, projectPath: string | null): string {
  const p = path.replace(/\\/g, '/');
  if (!projectPath) return p;
  const root = projectPath.replace(/\\/g, '/').replace(/\/+$/, '');
  if (p === root) return '.';
  if (p.startsWith(`${root}/`)) return p.slice(root.length + 1);
  return p.replace(/^\.\//, '');
}

/** Files an apply_patch-style input names, in order. */
export function patchFiles(text: string): Array<{ path: string; change: 'A' | 'M' | 'D' }> {
  const out: Array<{ path: string; change: 'A' | 'M' | 'D' }> = [];
  for (const match of text.matchAll(PATCH_FILE)) {
    const line = match[0];
    const change = line.startsWith('*** Add') ? 'A' : line.startsWith('*** Delete') ? 'D' : 'M';
    out.push({ path: (match[1] as string).trim(), change });
  }
  return out;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The call's main argument, comparable across formats (commands as text, paths relative to the project). */
export function toolTarget(family: string, input: unknown, projectPath: string | null): string | null {
  if (typeof input === 'string') {
    const files = patchFiles(input);
    if (files.length > 0) return files.map((f) => relativePath(f.path, projectPath)).join(', ');
    return input.trim() ? squash(input).slice(0, 200) : null;
  }
  const args = record(input);
  if (!args) return null;
  const patch = typeof args.input === 'string' ? patchFiles(args.input) : typeof args.patch === 'string' ? patchFiles(args.patch) : [];
  if (patch.length > 0) return patch.map((f) => relativePath(f.path, projectPath)).join(', ');
  for (const key of TARGET_KEYS[family] ?? GENERIC_KEYS) {
    const value = key === 'command' || key === 'cmd' || key === 'commands' ? commandText(args[key]) : args[key];
    if (typeof value !== 'string' || !value.trim()) continue;
    return PATH_KEYS.includes(key) || (family === 'search' && key === 'path') ? relativePath(value, projectPath) : squash(value).slice(0, 200);
  }
  return null;
}

/** Compact JSON with sorted keys, so the same arguments always read the same. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, (_key, v: unknown) => {
      const r = record(v);
      if (!r) return v;
      return Object.fromEntries(
        Object.keys(r)
          .sort()
          .map((k) => [k, r[k]]),
      );
    });
  } catch {
    return String(value);
  }
}
