// Files each session touched as a set diff: added, modified, deleted, renamed or only read, on one side or both.
import type { FileRow } from '../../../shared/compare/comparison.ts';

const LABEL: Record<FileRow['status'], string> = { same: 'both, alike', changed: 'both, differently', 'only-a': 'only A', 'only-b': 'only B' };

function Changes({ list }: { list: readonly string[] }) {
  if (list.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {list.map((c) => (
        <span key={c} className={`vcs-letter vcs-${c}`} title={c === 'read' ? 'read only' : undefined}>
          {c === 'read' ? 'r' : c}
        </span>
      ))}
    </>
  );
}

export function CompareFiles({ files }: { files: readonly FileRow[] }) {
  if (files.length === 0) return <p className="muted">Neither session recorded touching a file.</p>;
  return (
    <table className="grid cmp-files">
      <thead>
        <tr>
          <th>File</th>
          <th>A</th>
          <th>B</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {files.map((f) => (
          <tr key={f.path} className={`cmp-file ${f.status}`} data-testid="compare-file" data-status={f.status}>
            <td className="mono">{f.path}</td>
            <td>
              <Changes list={f.a} />
            </td>
            <td>
              <Changes list={f.b} />
            </td>
            <td className="muted">{LABEL[f.status]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
