import { describeError, invoke } from './client';
import type { SliceCreator } from './types';
import type { MANIFEST_ACTIONS, ManifestSlice } from './state/manifest';

// The manifest editor's writing and reading back: loaded on the first call (manifestSlice.ts
// names them), so the first screen, which edits no manifest, does without them.

export const createManifestActions: SliceCreator<Pick<ManifestSlice, (typeof MANIFEST_ACTIONS)[number]>> = (
  set,
  get,
) => {
  /** Writes the draft; `expected` undefined means "whatever is on disk" (a chosen overwrite). */
  async function write(expected: string | undefined) {
    const ed = get().editor;
    if (!ed || ed.saving) return;
    const draft = ed.draft;
    set({ editor: { ...ed, saving: true, conflict: null } });
    try {
      const result = await invoke('manifest.write', { id: ed.id, source: draft, expected });
      const cur = get().editor;
      if (cur?.id === ed.id)
        set({
          editor: {
            ...cur,
            baseSource: draft,
            baseHash: result.hash,
            issues: result.issues,
            saving: false,
            conflict: null,
          },
        });
      if (result.issues.length > 0)
        get().notify(
          'warning',
          `Saved with ${result.issues.length} problem${result.issues.length > 1 ? 's' : ''} in the manifest.`,
        );
    } catch (err) {
      const cur = get().editor;
      if (cur?.id !== ed.id) return;
      if ((err as { code?: string }).code === 'conflict') {
        const hash = String((err as { details?: { hash?: unknown } }).details?.hash ?? '');
        set({ editor: { ...cur, saving: false, conflict: { hash, message: describeError(err) } } });
      } else {
        set({ editor: { ...cur, saving: false } });
        get().notify('error', `Could not save the manifest: ${describeError(err)}`);
      }
    }
  }

  return {
    saveManifest() {
      return write(get().editor?.baseHash);
    },
    async reloadManifest() {
      const ed = get().editor;
      if (!ed) return;
      try {
        const m = await invoke('manifest.read', { id: ed.id });
        set({
          editor: { ...ed, baseSource: m.source, baseHash: m.hash, draft: m.source, issues: m.issues, conflict: null },
        });
      } catch (err) {
        get().notify('error', `Could not reload the manifest: ${describeError(err)}`);
      }
    },
    overwriteManifest() {
      // Overwrite the version the user saw in the conflict, so a third change is not lost either.
      return write(get().editor?.conflict?.hash || undefined);
    },
  };
};
