// Where a session ran: the git repository's root, branch and HEAD, read with `git rev-parse` when git is there.
import { execFile } from 'node:child_process';
import type { Repo } from './session-schema.ts';

function git(cwd: string, args: string[]): Promise<string | null> {
  return new Promise((done) => {
    execFile('git', args, { cwd, timeout: 5_000, windowsHide: true, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (err, stdout) => {
      done(err ? null : stdout.trim() || null);
    });
  });
}

/** Nulls for whatever is unknown: not a repository, no commits yet, a detached HEAD, or no git installed. */
export async function readRepoFacts(cwd: string): Promise<Repo> {
  const root = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (root === null) return { root: null, current_branch: null, head_sha: null };
  // symbolic-ref also names the branch of a repository with no commits yet.
  const [branch, head] = await Promise.all([git(cwd, ['symbolic-ref', '--short', '-q', 'HEAD']), git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD'])]);
  return {
    root,
    current_branch: branch,
    head_sha: head && /^[0-9a-f]{7,64}$/.test(head) ? head : null,
  };
}
