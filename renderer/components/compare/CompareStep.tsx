// One side of an aligned step: assistant text, a tool call (name, target, status, result) or an event, with its diff.
import type { Step, StepRow } from '../../../shared/compare/comparison.ts';
import { CompareWordDiff } from './CompareWordDiff.tsx';

const ASPECT_LABEL: Record<string, string> = {
  text: 'text differs',
  kind: 'different kind',
  tool: 'different tool',
  args: 'arguments differ',
  status: 'status differs',
};

function ToolBody({ step, row, side }: { step: Extract<Step, { kind: 'tool' }>; row: StepRow | null; side: 'a' | 'b' }) {
  const argsDiff = row?.diff && row.aspects.includes('args') ? row.diff : null;
  return (
    <>
      <div className="cmp-tool-line">
        <span className="cmp-tool-name" title={step.family === step.name.toLowerCase() ? undefined : `${step.family} tool`}>
          {step.name}
        </span>
        <span className="cmp-tool-target mono">{argsDiff ? <CompareWordDiff segments={argsDiff} side={side} /> : (step.target ?? step.args)}</span>
        <span className={`cmp-tool-status status-${step.status}`} data-testid="compare-tool-status">
          {step.status === 'none' ? 'no result' : step.status}
        </span>
      </div>
      {step.result && <div className="cmp-tool-result mono muted">{step.result}</div>}
    </>
  );
}

/** `row` is null for the steps of identical turns (nothing to mark). */
export function CompareStep({ step, row, side }: { step: Step | undefined; row: StepRow | null; side: 'a' | 'b' }) {
  if (!step)
    return (
      <div className="cmp-cell cmp-gap">
        <span className="sr-only">nothing on this side</span>
      </div>
    );
  const status = row?.moved ? 'moved' : (row?.status ?? 'same');
  const aspects = row?.status === 'changed' ? row.aspects : [];
  return (
    <div className={`cmp-cell cmp-step kind-${step.kind} st-${status}`} data-testid="compare-step" data-status={status} data-side={side}>
      {step.kind === 'text' && (
        <div className="cmp-text">{row?.diff && row.status === 'changed' ? <CompareWordDiff segments={row.diff} side={side} /> : step.text}</div>
      )}
      {step.kind === 'tool' && <ToolBody step={step} row={row} side={side} />}
      {step.kind === 'event' && (
        <div className="cmp-event muted">{row?.diff && row.status === 'changed' ? <CompareWordDiff segments={row.diff} side={side} /> : step.label}</div>
      )}
      {(aspects.length > 0 || row?.moved) && side === 'b' && (
        <div className="cmp-aspects">
          {row?.moved && <span className="chip">moved</span>}
          {aspects.map((a) => (
            <span key={a} className="chip">
              {ASPECT_LABEL[a] ?? a}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
