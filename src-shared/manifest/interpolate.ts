import { isMap, isPair, isScalar, isSeq, Scalar, type Document } from 'yaml';
import type { PathSegment } from './locate';

// ${VAR} interpolation, done on the parsed document rather than the text: only scalar values are
// interpolated (never keys, never comments), and a value cannot smuggle YAML structure in.
// "$${" writes a literal "${". An unquoted scalar that becomes a number or true/false after
// interpolation takes that type (so `internal_port: ${PORT}` is a number); quoted ones stay text.

export interface MissingVariable {
  name: string;
  path: PathSegment[];
  /** Offset of the reference in the source, for the issue's line and column. */
  offset: number;
}

export interface BadReference {
  text: string;
  path: PathSegment[];
  offset: number;
}

export interface Interpolation {
  secrets: string[];
  missing: MissingVariable[];
  bad: BadReference[];
  /** Field paths whose value came, in whole or part, from the environment. */
  paths: PathSegment[][];
  /** The interpolated text of each such field, before an unquoted one took a number/boolean type. */
  texts: { path: PathSegment[]; text: string }[];
}

const REF = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function retype(text: string): string | number | boolean {
  if (/^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  if (/^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  return text;
}

export function interpolate(doc: Document, source: string, env: Record<string, string | undefined>): Interpolation {
  const out: Interpolation = { secrets: [], missing: [], bad: [], paths: [], texts: [] };
  const refOffset = (scalar: Scalar, ref: string) => {
    const [start, end] = scalar.range ?? [0, 0];
    const at = source.indexOf(ref, start);
    return at >= 0 && at < end ? at : start;
  };

  const visitScalar = (scalar: Scalar, path: PathSegment[]) => {
    if (typeof scalar.value !== 'string' || !scalar.value.includes('${')) return;
    let touched = false;
    const text = scalar.value.replace(REF, (whole: string, name: string | undefined) => {
      if (name === undefined) return '${';
      if (!NAME.test(name)) {
        out.bad.push({ text: whole, path, offset: refOffset(scalar, whole) });
        return '';
      }
      touched = true;
      const value = env[name];
      if (value === undefined) {
        out.missing.push({ name, path, offset: refOffset(scalar, whole) });
        return '';
      }
      if (value && !out.secrets.includes(value)) out.secrets.push(value);
      return value;
    });
    if (touched) {
      out.paths.push(path);
      out.texts.push({ path, text });
    }
    scalar.value = scalar.type === Scalar.PLAIN && touched ? retype(text) : text;
  };

  const walk = (node: unknown, path: PathSegment[]) => {
    if (isScalar(node)) visitScalar(node, path);
    else if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
  };
  walk(doc.contents, []);
  return out;
}
