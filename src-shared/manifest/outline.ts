import type { z } from 'zod';
import { DRIVER_ARTIFACTS, manifestSchema } from './schema';

// The manifest schema as an editor needs it: for each field, its kind, its keys (a map), its
// element (a list) and its allowed values (an enum, literals, true/false). Read from the zod schema
// itself (its definitions, under the exact zod version package.json pins), so completion in the
// YAML editor never drifts from what the checker accepts.

export type OutlineKind = 'map' | 'list' | 'text' | 'number' | 'boolean' | 'choice' | 'any';

export interface OutlineNode {
  kind: OutlineKind;
  /** For a map: its keys, in schema order. */
  keys?: Record<string, OutlineNode>;
  /** For a list: the shape of one element. */
  element?: OutlineNode;
  /** Values worth offering (enum and literal values, true/false, the built-in drivers). */
  values?: string[];
  /** Other forms a union also takes ("a number", "text"), for the hover. */
  forms?: string[];
  required?: boolean;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  options?: z.ZodType[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Schema definitions nest at most this deep (the manifest's are 7); a deeper one is cut off as "any". */
const MAX_DEPTH = 16;

function build(schema: z.ZodType, depth: number): OutlineNode {
  let s = schema;
  let required = true;
  for (let i = 0; i < 10; i++) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault') required = false;
    if (d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else break;
  }
  const d = defOf(s);
  const node = ((): OutlineNode => {
    if (depth > MAX_DEPTH) return { kind: 'any' };
    switch (d.type) {
      case 'object':
        return {
          kind: 'map',
          keys: Object.fromEntries(Object.entries(d.shape ?? {}).map(([k, v]) => [k, build(v, depth + 1)])),
        };
      case 'array':
        return { kind: 'list', element: d.element ? build(d.element, depth + 1) : { kind: 'any' } };
      case 'record':
        return { kind: 'map' };
      case 'string':
        return { kind: 'text' };
      case 'number':
        return { kind: 'number' };
      case 'boolean':
        return { kind: 'boolean', values: ['true', 'false'] };
      case 'enum':
        return { kind: 'choice', values: Object.values(d.entries ?? {}).map(String) };
      case 'literal':
        return { kind: 'choice', values: (d.values ?? []).map(String) };
      case 'union': {
        const branches = (d.options ?? []).map((o) => build(o, depth + 1));
        const map = branches.find((b) => b.kind === 'map');
        const values = branches.flatMap((b) => (b.kind === 'choice' ? (b.values ?? []) : []));
        const forms = branches.filter((b) => b.kind !== 'choice').map((b) => b.kind);
        const { required: _branchRequired, ...shape } = map ?? {
          kind: values.length ? 'choice' : (branches[0]?.kind ?? 'any'),
        };
        return { ...shape, ...(values.length ? { values } : {}), forms };
      }
      default:
        return { kind: 'any' };
    }
  })();
  return required ? { ...node, required: true } : node;
}

/** The manifest's outline, built once from the schema. */
export const manifestOutline: OutlineNode = (() => {
  const root = build(manifestSchema, 0);
  const driver = root.keys?.inference?.keys?.driver?.keys?.artifact;
  if (driver) driver.values = Object.keys(DRIVER_ARTIFACTS);
  return root;
})();

/** A path step: a key, or "[]" for any element of a list. */
export type OutlineStep = string;

/** The node at a path ("[]" steps into list elements), or undefined when the schema has none. */
export function outlineAt(path: readonly OutlineStep[], root: OutlineNode = manifestOutline): OutlineNode | undefined {
  let n: OutlineNode | undefined = root;
  for (const step of path) {
    if (!n) return undefined;
    n = step === '[]' ? n.element : n.keys?.[step];
  }
  return n;
}

/** Every key path of the outline, written "inference.rehearsal.replies[].turns[].text". */
export function outlinePaths(root: OutlineNode = manifestOutline): string[] {
  const out: string[] = [];
  const walk = (n: OutlineNode, prefix: string) => {
    if (n.kind === 'list' && n.element) walk(n.element, `${prefix}[]`);
    for (const [k, v] of Object.entries(n.keys ?? {})) {
      const p = prefix ? `${prefix}.${k}` : k;
      out.push(p);
      walk(v, p);
    }
  };
  walk(root, '');
  return out;
}

/** "inference.rehearsal.replies[].turns[].text" for a path of steps. */
export function outlinePathText(path: readonly OutlineStep[]): string {
  return path.reduce((s, step) => (step === '[]' ? `${s}[]` : s ? `${s}.${step}` : step), '');
}
