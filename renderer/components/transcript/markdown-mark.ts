// A rehype step that wraps find-in-session matches in <mark>, inside rendered markdown and highlighted code alike.
import { splitMatches } from './find.ts';

/** The few hast shapes this step touches (hast's own types are not a dependency of ours). */
interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  tagName: string;
  properties: Record<string, unknown>;
  children: HastNode[];
}
interface HastParent {
  type: string;
  children?: HastNode[];
}
type HastNode = HastText | HastElement | HastParent;

function markText(node: HastText, query: string): HastNode[] | null {
  const pieces = splitMatches(node.value, query);
  if (pieces.length === 1) return null;
  return pieces
    .map((value, i): HastNode =>
      i % 2 === 1
        ? { type: 'element', tagName: 'mark', properties: { className: ['find-hit'] }, children: [{ type: 'text', value }] }
        : { type: 'text', value },
    )
    .filter((n) => n.type !== 'text' || (n as HastText).value !== '');
}

function walk(node: HastNode, query: string): void {
  const children = 'children' in node ? node.children : undefined;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as HastNode;
    if (child.type === 'text') {
      const replaced = markText(child as HastText, query);
      if (replaced) {
        children.splice(i, 1, ...replaced);
        i += replaced.length - 1;
      }
    } else {
      walk(child, query);
    }
  }
}

/** Plugin factory for rehypePlugins: `[rehypeMark, query]`. */
export function rehypeMark(query: string) {
  return (tree: HastNode): undefined => {
    if (query) walk(tree, query);
    return undefined;
  };
}
