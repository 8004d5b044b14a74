import type { Manifest } from '../../src-shared/manifest';

/** One problem in a manifest, located by file, line and field path. */
export interface ManifestIssue {
  file: string;
  line?: number;
  column?: number;
  /** Field path such as "inference.driver.artifact" or "artifacts[0].gateway.api_key"; "" for the whole file. */
  path: string;
  message: string;
  hint?: string;
}

export type ManifestLoadResult =
  | {
      ok: true;
      manifest: Manifest;
      /** Every value ${VAR} interpolation put in: mask these wherever text leaves the process. */
      secrets: string[];
      /** The file as written, before interpolation (edits work on this). */
      source: string;
    }
  | { ok: false; issues: ManifestIssue[] };
