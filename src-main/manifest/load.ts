import { checkManifestSource } from '../../src-shared/manifest';
import { contractProblem } from './contracts';
import { readSourceFile, SourceReadError } from './read-source';
import type { ManifestLoadResult } from './types';

// Reads a manifest with the one checker the Studio's editor also uses (src-shared/manifest/check.ts),
// here with the environment for ${VAR} interpolation and with JSON Schema contracts compiled.

export function parseManifest(
  source: string,
  file: string,
  env: Record<string, string | undefined> = process.env,
): ManifestLoadResult {
  const result = checkManifestSource(source, { env, contractProblem });
  if (!result.ok) return { ok: false, issues: result.issues.map((i) => ({ file, ...i })) };
  return { ok: true, manifest: result.manifest, secrets: result.secrets, source };
}

export function loadManifestFile(
  file: string,
  env: Record<string, string | undefined> = process.env,
): ManifestLoadResult {
  let source: string;
  try {
    source = readSourceFile(file);
  } catch (err) {
    const { code, message: why } = err as SourceReadError;
    const message =
      code === 'ENOENT'
        ? 'manifest file not found'
        : code === 'EACCES'
          ? 'manifest file is not readable (permission denied)'
          : code === 'EISDIR'
            ? 'expected a manifest file, found a folder'
            : `cannot read manifest: ${why}`;
    return { ok: false, issues: [{ file, path: '', message }] };
  }
  return parseManifest(source, file, env);
}
