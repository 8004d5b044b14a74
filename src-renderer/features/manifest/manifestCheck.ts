import { LineCounter, parseDocument, isMap, isScalar, type Document } from 'yaml';
import type { IssueView } from '../../../src-shared/contract';
import { describeSyntaxError, keyHint, keysAt, manifestSchema } from '../../../src-shared/manifest';

// Checks a draft as the user types, so a mistake shows at its line before Save, worded as the
// core's loader words it (same syntax positions, same "did you mean" hints). The core's issues
// (after ${VAR} interpolation) stay the authority once the text is saved; values holding a ${VAR}
// reference are not judged here, since only the core knows what they become.

const hasVar = (v: unknown) => typeof v === 'string' && v.includes('${');

function lineOf(doc: Document, lc: LineCounter, path: (string | number)[], key?: string): number | undefined {
  for (let i = path.length; i >= 0; i--) {
    const node = doc.getIn(path.slice(0, i), true) as { range?: [number, number, number] } | undefined;
    if (key && i === path.length && isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      const r = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
      if (r) return lc.linePos(r[0]).line;
    }
    if (node?.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cur = data;
  for (const k of path) cur = cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur;
}

/** Syntax errors and schema problems of a manifest draft, each with its line where known. */
export function checkManifest(text: string): IssueView[] {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    return doc.errors.map((e) => {
      const { offset, message } = describeSyntaxError(text, e);
      const pos = lc.linePos(offset);
      return { line: pos.line, column: pos.col, path: '', message };
    });
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [{ line: 1, path: '', message: 'A manifest is a YAML mapping (name:, version:, inference: …).' }];
  const result = manifestSchema.safeParse(data);
  if (result.success) return [];
  const issues: IssueView[] = [];
  for (const issue of result.error.issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (hasVar(valueAt(data, path))) continue;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = keyHint(key, keysAt(manifestSchema, path));
        issues.push({ line: lineOf(doc, lc, path, key), path: [...path, key].join('.'), message: `unknown key "${key}"`, ...(hint ? { hint } : {}) });
      }
      continue;
    }
    issues.push({ line: lineOf(doc, lc, path), path: path.join('.'), message: issue.message });
  }
  return issues;
}
