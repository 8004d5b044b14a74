import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { MANIFEST_DOCS, outlineAt, outlinePathText, type OutlineNode } from '../../../../src-shared/manifest';
import { keysBeside, yamlContextAt } from './yamlContext';

// Completion from the manifest schema: the keys allowed where the caret is, and the values a field
// takes (enum values, true/false, the built-in drivers).

const isLeaf = (n: OutlineNode) => n.kind !== 'map' && n.kind !== 'list';

function keyOptions(node: OutlineNode, path: string[]): Completion[] {
  return Object.entries(node.keys ?? {}).map(([key, child]) => ({
    label: key,
    type: 'property',
    detail: child.required ? `${child.kind}, required` : child.kind,
    info: MANIFEST_DOCS[outlinePathText([...path, key])],
    apply: isLeaf(child) ? `${key}: ` : `${key}:`,
  }));
}

const valueOptions = (node: OutlineNode | undefined): Completion[] =>
  (node?.values ?? []).map((v) => ({ label: v, type: node?.kind === 'boolean' ? 'keyword' : 'enum' }));

export function manifestCompletion(context: CompletionContext): CompletionResult | null {
  const line = context.state.doc.lineAt(context.pos);
  // Only the lines above matter to the path: read them, not the whole document.
  const c = yamlContextAt(context.state.sliceDoc(0, context.pos), context.pos);
  if (!c || (!context.explicit && !c.typed && c.at === 'key')) return null;
  let options: Completion[];
  if (c.at === 'value') {
    options = valueOptions(outlineAt([...c.path, c.key!]));
  } else {
    const node = outlineAt(c.path);
    if (node?.keys) {
      const written = keysBeside(context.state.doc.toString(), line.number - 1, c.from - line.from);
      options = keyOptions(node, c.path).filter((o) => !written.has(o.label));
    } else options = c.item ? valueOptions(node) : [];
  }
  if (!options.length) return null;
  return { from: Math.max(c.from, line.from), options, validFor: /^[\w./-]*$/ };
}
