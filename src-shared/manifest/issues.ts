import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { manifestSchema } from './schema';
import { keyHint, keysAt } from './hints';
import { formatPath, locate, locateKey, position, type PathSegment } from './locate';

// Turns zod's issues into manifest issues: located in the file, worded for a person editing YAML,
// and never quoting a value (a value may have come from a secret). This reads zod's issue shapes
// (code, expected, values, origin, minimum, errors of a union), which is why zod is pinned to one
// exact version in package.json: a minor release that reshapes them changes every message here.

/** One problem in a manifest text, at its line and column (1-based) and field path. */
export interface CheckIssue {
  line?: number;
  column?: number;
  /** "inference.driver.artifact", "artifacts[0].gateway.api_key"; "" for the whole file. */
  path: string;
  message: string;
  hint?: string;
}

export interface IssueContext {
  doc: Document;
  lines: LineCounter;
  data: unknown;
  /** Formatted paths whose value came from the environment. */
  fromEnv: Set<string>;
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number') return 'a number';
  if (typeof v === 'boolean') return 'true/false';
  return typeof v;
}

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a map of fields',
  array: 'a list',
  record: 'a map',
};

function at(ctx: IssueContext, path: readonly PathSegment[], message: string, hint?: string, key?: string): CheckIssue {
  const node = key !== undefined ? locateKey(ctx.doc, path, key) : locate(ctx.doc, path).anchor;
  const fullPath = key !== undefined ? [...path, key] : path;
  return { ...position(node, ctx.lines), path: formatPath(fullPath), message, ...(hint ? { hint } : {}) };
}

/** Literal options and expected kinds offered by the branches of a failed union. */
function unionForms(issue: z.core.$ZodIssue): string[] {
  if (issue.code !== 'invalid_union') return [];
  const forms: string[] = [];
  for (const branch of issue.errors) {
    for (const sub of branch) {
      if (sub.path.length) continue;
      if (sub.code === 'invalid_value') forms.push(...sub.values.map((v) => String(v)));
      else if (sub.code === 'invalid_type') forms.push(EXPECTED[sub.expected] ?? sub.expected);
      else if (sub.code === 'invalid_format' && sub.message) forms.push(sub.message);
    }
  }
  return [...new Set(forms)];
}

export function zodIssues(ctx: IssueContext, issues: readonly z.core.$ZodIssue[]): CheckIssue[] {
  const out: CheckIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((p): p is PathSegment => typeof p !== 'symbol');
    const secret = ctx.fromEnv.has(formatPath(path));
    const note = secret ? ' (the value comes from the environment and is not shown)' : '';
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys)
          out.push(at(ctx, path, `unknown key "${key}"`, keyHint(key, keysAt(manifestSchema, path)), key));
        break;
      case 'invalid_type': {
        const value = valueAt(ctx.data, path);
        const expected = EXPECTED[issue.expected] ?? issue.expected;
        if (value === undefined && !locate(ctx.doc, path).exists) {
          const last = path[path.length - 1];
          const parent = path.slice(0, -1);
          const where = parent.length ? ` under "${formatPath(parent)}"` : ' at the top level';
          out.push(at(ctx, path, `required field is missing (expected ${expected})`, `add "${String(last)}:"${where}`));
        } else {
          const quote = issue.expected === 'string' && (typeof value === 'number' || typeof value === 'boolean');
          out.push(
            at(
              ctx,
              path,
              `expected ${expected}, got ${kindOf(value)}${note}`,
              quote ? 'put the value in quotes to make it text, e.g. "0.1.0"' : undefined,
            ),
          );
        }
        break;
      }
      case 'invalid_value':
        out.push(
          at(
            ctx,
            path,
            `not an allowed value${note}`,
            `allowed values: ${issue.values.map((v) => String(v)).join(', ')}`,
          ),
        );
        break;
      case 'invalid_union': {
        const forms = unionForms(issue);
        out.push(
          at(
            ctx,
            path,
            `not an allowed form${note}`,
            forms.length ? `expected one of: ${forms.join('; ')}` : undefined,
          ),
        );
        break;
      }
      case 'too_small':
      case 'too_big': {
        const word = issue.code === 'too_small' ? 'at least' : 'at most';
        const what = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
        const limit =
          issue.origin === 'string' && issue.code === 'too_small' && issue.minimum === 1
            ? 'must not be empty'
            : `must be ${word} ${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)}${what}`;
        out.push(at(ctx, path, `${limit}${note}`));
        break;
      }
      case 'invalid_format':
        out.push(
          at(
            ctx,
            path,
            `${issue.format === 'url' ? 'not a valid URL' : issue.format === 'regex' ? 'not in the expected form' : `not a valid ${issue.format}`}${note}`,
            issue.format === 'regex' ? issue.message : undefined,
          ),
        );
        break;
      default:
        out.push(at(ctx, path, `${issue.message}${note}`));
    }
  }
  return out;
}
