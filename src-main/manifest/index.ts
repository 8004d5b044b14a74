import type { ManifestIssue } from './types';

// Manifests on disk: loading with located errors and ${VAR} interpolation, comment-preserving edits
// and the templates for new capsules.

export type { ManifestIssue, ManifestLoadResult } from './types';
export { loadManifestFile, parseManifest } from './load';
export { MAX_SOURCE_BYTES, readSourceFile, SourceReadError, sourceSizeProblem } from './read-source';
export { describeFsError, fsReason } from './fs-reason';
export { editManifestSource } from './edit';
export { compileLinear, linearRegExp } from './re2';
export { renderManifestTemplate, type ManifestTemplateOptions } from './template';
export type { ManifestEditOp } from '../../src-shared/manifest';

export class ManifestError extends Error {
  constructor(readonly issues: ManifestIssue[]) {
    super(formatIssues(issues));
    this.name = 'ManifestError';
  }
}

/** One line per issue: `file:line:column: path: message (hint: …)`. */
export function formatIssues(issues: ManifestIssue[]): string {
  return issues
    .map((i) => {
      const where = `${i.file}${i.line ? `:${i.line}${i.column ? `:${i.column}` : ''}` : ''}`;
      return `${where}: ${i.path ? `${i.path}: ` : ''}${i.message}${i.hint ? ` (hint: ${i.hint})` : ''}`;
    })
    .join('\n');
}
