import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { manifestSchema, type Manifest } from '../../src-shared/manifest';

// Minimal loader: the manifest issue replaces the insides (line numbers, hints, interpolation
// rules) and keeps this surface.

/** One problem in a manifest, located by file, line and field path. */
export interface ManifestIssue {
  file: string;
  line?: number;
  column?: number;
  path: string;
  message: string;
  hint?: string;
}

export type ManifestLoadResult =
  | { ok: true; manifest: Manifest; secrets: string[]; source: string }
  | { ok: false; issues: ManifestIssue[] };

export class ManifestError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(formatIssues(issues));
  }
}

export function formatIssues(issues: ManifestIssue[]): string {
  return issues
    .map((i) => `${i.file}${i.line ? `:${i.line}` : ''}: ${i.path ? `${i.path}: ` : ''}${i.message}${i.hint ? ` (hint: ${i.hint})` : ''}`)
    .join('\n');
}

export function loadManifestFile(file: string, env: Record<string, string | undefined> = process.env): ManifestLoadResult {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, issues: [{ file, path: '', message: `cannot read manifest: ${(err as Error).message}` }] };
  }
  return parseManifest(source, file, env);
}

export function parseManifest(source: string, file: string, env: Record<string, string | undefined> = process.env): ManifestLoadResult {
  const secrets: string[] = [];
  const issues: ManifestIssue[] = [];
  const text = source.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) {
      issues.push({ file, path: '', message: `environment variable ${name} is not set`, hint: `export ${name}=…` });
      return '';
    }
    secrets.push(v);
    return v;
  });
  if (issues.length) return { ok: false, issues };
  const parsed = manifestSchema.safeParse(parse(text));
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((i) => ({ file, path: i.path.join('.'), message: i.message })) };
  }
  return { ok: true, manifest: parsed.data, secrets, source };
}
