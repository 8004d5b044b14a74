import { readFileSync } from 'node:fs';
import { checkManifestSource } from '../../src-shared/manifest';
import { contractProblem } from './contracts';
import type { ManifestLoadResult } from './types';

// Reads a manifest with the one checker the Studio's editor also uses (src-shared/manifest/check.ts),
// here with the environment for ${VAR} interpolation and with JSON Schema contracts compiled.

export function parseManifest(source: string, file: string, env: Record<string, string | undefined> = process.env): ManifestLoadResult {
  const result = checkManifestSource(source, { env, contractProblem });
  if (!result.ok) return { ok: false, issues: result.issues.map((i) => ({ file, ...i })) };
  return { ok: true, manifest: result.manifest, secrets: result.secrets, source };
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
