import { readFileSync } from 'node:fs';
import { isMap, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { DRIVER_ARTIFACTS, manifestSchema, parseAllowPattern } from '../../src-shared/manifest';
import { closest } from './hints';
import { describeSyntaxError } from '../../src-shared/manifest';
import { interpolate, type Interpolation } from './interpolate';
import { zodIssues, type IssueContext } from './issues';
import { formatPath, locate, position, type PathSegment } from './locate';
import type { ManifestIssue, ManifestLoadResult } from './types';

// Reads a manifest: YAML syntax, then ${VAR} interpolation, then the schema, then the checks the
// schema cannot express (known driver, valid allow patterns). Every issue is collected, located
// and sorted by position, so a person fixes the file in one pass.

const ALLOW_FORMS = 'host:port, host, *.example.com, http(s)://host[:port][/path]';

function byPosition(a: ManifestIssue, b: ManifestIssue): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path) || a.message.localeCompare(b.message);
}

/** Replaces any secret that still slipped into a message or hint. */
function scrub(issue: ManifestIssue, secrets: readonly string[]): ManifestIssue {
  const clean = (s: string) => secrets.reduce((t, secret) => (secret.length >= 3 ? t.split(secret).join('***') : t), s);
  return { ...issue, message: clean(issue.message), ...(issue.hint ? { hint: clean(issue.hint) } : {}) };
}

function extraChecks(ctx: IssueContext): ManifestIssue[] {
  const out: ManifestIssue[] = [];
  const issueAt = (path: PathSegment[], message: string, hint: string): ManifestIssue => ({
    file: ctx.file,
    ...position(locate(ctx.doc, path).anchor, ctx.lines),
    path: formatPath(path),
    message,
    hint,
  });
  const data = ctx.data as { inference?: { driver?: { artifact?: unknown } }; capabilities?: { network?: { allow?: unknown } } } | null;
  const artifact = data?.inference?.driver?.artifact;
  if (typeof artifact === 'string' && artifact && !(artifact in DRIVER_ARTIFACTS)) {
    const path = ['inference', 'driver', 'artifact'];
    const secret = ctx.fromEnv.has(formatPath(path));
    const builtIn = Object.keys(DRIVER_ARTIFACTS);
    const near = secret ? undefined : closest(artifact, builtIn);
    out.push(issueAt(path, secret ? 'unknown driver artifact (the value comes from the environment and is not shown)' : `unknown driver artifact "${artifact}"`, `${near ? `did you mean "${near}"? ` : ''}built-in drivers: ${builtIn.join(', ')}`));
  }
  const allow = data?.capabilities?.network?.allow;
  if (Array.isArray(allow)) {
    allow.forEach((entry, i) => {
      if (typeof entry !== 'string' || !entry || parseAllowPattern(entry)) return;
      const path = ['capabilities', 'network', 'allow', i];
      out.push(issueAt(path, ctx.fromEnv.has(formatPath(path)) ? 'not an allow pattern (the value comes from the environment and is not shown)' : `not an allow pattern: "${entry}"`, `forms: ${ALLOW_FORMS}`));
    });
  }
  return out;
}

function restoreText(data: unknown, texts: Interpolation['texts'], issues: readonly z.core.$ZodIssue[]): boolean {
  let restored = false;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.expected !== 'string') continue;
    const entry = texts.find((t) => formatPath(t.path) === formatPath(issue.path as PathSegment[]));
    const parent = entry && (entry.path.slice(0, -1).reduce<unknown>((v, seg) => (v as Record<string | number, unknown> | undefined)?.[seg], data) as Record<string | number, unknown> | undefined);
    if (!entry || !parent || typeof parent !== 'object') continue;
    parent[entry.path[entry.path.length - 1]] = entry.text;
    restored = true;
  }
  return restored;
}

export function parseManifest(source: string, file: string, env: Record<string, string | undefined> = process.env): ManifestLoadResult {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    const issues = doc.errors.map((e): ManifestIssue => {
      const { offset, message } = describeSyntaxError(source, e);
      const pos = lines.linePos(offset);
      return { file, line: pos.line, column: pos.col, path: '', message };
    });
    return { ok: false, issues: issues.sort(byPosition) };
  }
  if (!isMap(doc.contents)) {
    const empty = doc.contents === null;
    return { ok: false, issues: [{ file, ...(empty ? {} : position(doc.contents ?? undefined, lines)), path: '', message: empty ? 'the manifest is empty' : 'the manifest must be a map of fields (name, version, inference, …)' }] };
  }

  const found = interpolate(doc, source, env);
  const issues: ManifestIssue[] = [];
  for (const m of found.missing) {
    const pos = lines.linePos(m.offset);
    issues.push({ file, line: pos.line, column: pos.col, path: formatPath(m.path), message: `environment variable ${m.name} is not set`, hint: `export ${m.name}=… before launching` });
  }
  for (const b of found.bad) {
    const pos = lines.linePos(b.offset);
    issues.push({ file, line: pos.line, column: pos.col, path: formatPath(b.path), message: `not a variable reference: ${b.text}`, hint: 'write ${NAME} with letters, digits and underscores, or $${ for a literal ${' });
  }
  // A field whose variable is missing has no real value yet: its schema complaints would only be noise.
  const unset = new Set([...found.missing, ...found.bad].map((m) => formatPath(m.path)));

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { ok: false, issues: [{ file, path: '', message: `cannot read the manifest: ${(err as Error).message}` }] };
  }
  const ctx: IssueContext = { file, doc, lines, data, fromEnv: new Set(found.paths.map(formatPath)) };
  let parsed = manifestSchema.safeParse(data);
  // An unquoted ${VAR} that looked like a number where text is expected (an all-digit key) is text.
  if (!parsed.success && restoreText(data, found.texts, parsed.error.issues)) parsed = manifestSchema.safeParse(data);
  if (!parsed.success) issues.push(...zodIssues(ctx, parsed.error.issues).filter((i) => !unset.has(i.path)));
  issues.push(...extraChecks(ctx).filter((i) => !unset.has(i.path)));

  if (issues.length || !parsed.success) return { ok: false, issues: issues.map((i) => scrub(i, found.secrets)).sort(byPosition) };
  return { ok: true, manifest: parsed.data, secrets: found.secrets, source };
}

export function loadManifestFile(file: string, env: Record<string, string | undefined> = process.env): ManifestLoadResult {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'manifest file not found' : code === 'EACCES' ? 'manifest file is not readable (permission denied)' : code === 'EISDIR' ? 'expected a manifest file, found a folder' : `cannot read manifest: ${(err as Error).message}`;
    return { ok: false, issues: [{ file, path: '', message }] };
  }
  return parseManifest(source, file, env);
}
