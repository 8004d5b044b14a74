import { isMap, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { interpolate, type Interpolation } from './interpolate';
import { closest } from './hints';
import { zodIssues, type CheckIssue, type IssueContext } from './issues';
import { formatPath, locate, position, type PathSegment } from './locate';
import { parseAllowPattern } from './allow';
import { DRIVER_ARTIFACTS, manifestSchema, type Manifest } from './schema';
import { describeSyntaxError } from './yaml-errors';

// The one manifest checker, used by the core's loader and by the Studio's editor as you type:
// YAML syntax, then ${VAR} interpolation, then the schema, then the checks the schema cannot
// express (known driver, valid allow patterns, contracts that are JSON Schema). Every issue is
// located (line and column from the YAML document's node ranges) and sorted by position, so a
// person fixes the file in one pass, and both sides word and place each issue the same way.
//
// Without `env` (the editor: only the core knows the environment), references are not resolved
// and a value holding a ${VAR} is not judged. Without `contractProblem` (the editor: compiling a
// JSON Schema needs eval, which the Studio page's CSP forbids), contracts are not compiled.

export type { CheckIssue } from './issues';

export interface CheckOptions {
  /** The environment ${VAR} references read; absent leaves references unresolved and unjudged. */
  env?: Record<string, string | undefined>;
  /** Why a contract (`accepts`, `responds`) is not a usable JSON Schema, or undefined when it is. */
  contractProblem?: (schema: unknown) => string | undefined;
}

export type CheckResult =
  { ok: true; manifest: Manifest; secrets: string[] } | { ok: false; issues: CheckIssue[]; secrets: string[] };

const ALLOW_FORMS = 'host:port, host, *.example.com, http(s)://host[:port][/path]';
/** Anchors and aliases expanded at most this many times (a "billion laughs" file is an issue, not a hang). */
const MAX_ALIASES = 100;

function byPosition(a: CheckIssue, b: CheckIssue): number {
  return (
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    a.path.localeCompare(b.path) ||
    a.message.localeCompare(b.message)
  );
}

/** Replaces any secret that still slipped into a message or hint. */
function scrub(issue: CheckIssue, secrets: readonly string[]): CheckIssue {
  const clean = (s: string) => secrets.reduce((t, secret) => (secret.length >= 3 ? t.split(secret).join('***') : t), s);
  return { ...issue, message: clean(issue.message), ...(issue.hint ? { hint: clean(issue.hint) } : {}) };
}

function extraChecks(ctx: IssueContext, contractProblem: CheckOptions['contractProblem']): CheckIssue[] {
  const out: CheckIssue[] = [];
  const issueAt = (path: PathSegment[], message: string, hint: string): CheckIssue => ({
    ...position(locate(ctx.doc, path).anchor, ctx.lines),
    path: formatPath(path),
    message,
    hint,
  });
  const data = ctx.data as {
    inference?: { driver?: { artifact?: unknown } };
    capabilities?: { network?: { allow?: unknown } };
  } | null;
  const artifact = data?.inference?.driver?.artifact;
  if (typeof artifact === 'string' && artifact && !(artifact in DRIVER_ARTIFACTS)) {
    const path = ['inference', 'driver', 'artifact'];
    const secret = ctx.fromEnv.has(formatPath(path));
    const builtIn = Object.keys(DRIVER_ARTIFACTS);
    const near = secret ? undefined : closest(artifact, builtIn);
    out.push(
      issueAt(
        path,
        secret
          ? 'unknown driver artifact (the value comes from the environment and is not shown)'
          : `unknown driver artifact "${artifact}"`,
        `${near ? `did you mean "${near}"? ` : ''}built-in drivers: ${builtIn.join(', ')}`,
      ),
    );
  }
  const allow = data?.capabilities?.network?.allow;
  if (Array.isArray(allow)) {
    allow.forEach((entry, i) => {
      if (typeof entry !== 'string' || !entry || parseAllowPattern(entry)) return;
      const path = ['capabilities', 'network', 'allow', i];
      out.push(
        issueAt(
          path,
          ctx.fromEnv.has(formatPath(path))
            ? 'not an allow pattern (the value comes from the environment and is not shown)'
            : `not an allow pattern: "${entry}"`,
          `forms: ${ALLOW_FORMS}`,
        ),
      );
    });
  }
  for (const key of ['accepts', 'responds'] as const) {
    const problem = contractProblem?.((ctx.data as Record<string, unknown> | null)?.[key]);
    if (problem)
      out.push(
        issueAt(
          [key],
          `not a valid JSON Schema: ${problem}`,
          'see https://json-schema.org; e.g. { type: object, properties: { summary: { type: string } } }',
        ),
      );
  }
  return out;
}

function restoreText(data: unknown, texts: Interpolation['texts'], issues: readonly z.core.$ZodIssue[]): boolean {
  let restored = false;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.expected !== 'string') continue;
    const entry = texts.find((t) => formatPath(t.path) === formatPath(issue.path as PathSegment[]));
    const parent =
      entry &&
      (entry.path
        .slice(0, -1)
        .reduce<unknown>((v, seg) => (v as Record<string | number, unknown> | undefined)?.[seg], data) as
        Record<string | number, unknown> | undefined);
    if (!entry || !parent || typeof parent !== 'object') continue;
    parent[entry.path[entry.path.length - 1]] = entry.text;
    restored = true;
  }
  return restored;
}

function valueAt(data: unknown, path: string): unknown {
  const segs = path.match(/[^.[\]]+/g) ?? [];
  let v = data;
  for (const seg of segs) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
  return v;
}

const START = { line: 1, column: 1 };

/** Checks a manifest text; every issue has a line and column, and they come sorted by position. */
export function checkManifestSource(source: string, options: CheckOptions = {}): CheckResult {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    const issues = doc.errors.map((e): CheckIssue => {
      const { offset, message } = describeSyntaxError(source, e);
      const pos = lines.linePos(offset);
      return { line: pos.line, column: pos.col, path: '', message };
    });
    return { ok: false, issues: issues.sort(byPosition), secrets: [] };
  }
  if (!isMap(doc.contents)) {
    const empty = doc.contents === null;
    const where = empty ? START : { ...START, ...position(doc.contents ?? undefined, lines) };
    return {
      ok: false,
      issues: [
        {
          ...where,
          path: '',
          message: empty
            ? 'the manifest is empty'
            : 'the manifest must be a map of fields (name, version, inference, …)',
        },
      ],
      secrets: [],
    };
  }

  const issues: CheckIssue[] = [];
  const { env } = options;
  const found: Interpolation = env
    ? interpolate(doc, source, env)
    : { secrets: [], missing: [], bad: [], paths: [], texts: [] };
  for (const m of found.missing) {
    const pos = lines.linePos(m.offset);
    issues.push({
      line: pos.line,
      column: pos.col,
      path: formatPath(m.path),
      message: `environment variable ${m.name} is not set`,
      hint: `export ${m.name}=… before launching`,
    });
  }
  for (const b of found.bad) {
    const pos = lines.linePos(b.offset);
    issues.push({
      line: pos.line,
      column: pos.col,
      path: formatPath(b.path),
      message: `not a variable reference: ${b.text}`,
      hint: 'write ${NAME} with letters, digits and underscores, or $${ for a literal ${',
    });
  }
  // A field whose variable is missing has no real value yet: its schema complaints would only be noise.
  const unset = new Set([...found.missing, ...found.bad].map((m) => formatPath(m.path)));

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    return {
      ok: false,
      issues: [{ ...START, path: '', message: `cannot read the manifest: ${(err as Error).message}` }],
      secrets: found.secrets,
    };
  }
  const ctx: IssueContext = { doc, lines, data, fromEnv: new Set(found.paths.map(formatPath)) };
  let parsed = manifestSchema.safeParse(data);
  // An unquoted ${VAR} that looked like a number where text is expected (an all-digit key) is text.
  if (!parsed.success && restoreText(data, found.texts, parsed.error.issues)) parsed = manifestSchema.safeParse(data);
  // Unresolved (no env): a value that still holds a ${VAR} is whatever the environment makes it.
  const judged = (i: CheckIssue) =>
    !unset.has(i.path) && (env !== undefined || !String(valueAt(data, i.path) ?? '').includes('${'));
  if (!parsed.success) issues.push(...zodIssues(ctx, parsed.error.issues).filter(judged));
  issues.push(...extraChecks(ctx, options.contractProblem).filter(judged));

  if (issues.length || !parsed.success)
    return {
      ok: false,
      issues: issues.map((i) => ({ ...START, ...scrub(i, found.secrets) })).sort(byPosition),
      secrets: found.secrets,
    };
  return { ok: true, manifest: parsed.data, secrets: found.secrets };
}

/** The issues of a manifest text (empty when it is valid). */
export function checkManifest(source: string, options: CheckOptions = {}): CheckIssue[] {
  const result = checkManifestSource(source, options);
  return result.ok ? [] : result.issues;
}
