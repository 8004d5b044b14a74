import { useEffect, useState } from 'react';
import type { CommandInput, DeployPreview } from '../../../src-shared/contract';
import { describeError, invoke } from '../../store';

/** How long typing pauses before the preview is asked for again (one request per pause, not per key). */
const PREVIEW_DEBOUNCE_MS = 250;

export type ExportOptions = CommandInput<'deploy.preview'>;

/** The export's preview for the options as typed; the previous preview stays shown while the next one comes. */
export function useExportPreview(
  options: ExportOptions,
  version: number,
): { preview: DeployPreview | null; error: string | null } {
  const [preview, setPreview] = useState<DeployPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(options);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      invoke('deploy.preview', JSON.parse(key) as ExportOptions).then(
        (p) => {
          if (!live) return;
          setPreview(p);
          setError(null);
        },
        (err) => live && setError(describeError(err)),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, version]);
  return { preview, error };
}
