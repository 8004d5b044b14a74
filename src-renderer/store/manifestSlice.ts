import type { EventPayload } from '../../src-shared/contract';
import { describeError, invoke } from './client';
import type { SliceCreator, StudioState } from './types';
import type { ManifestSlice } from './state/manifest';
export type { ManifestEditor, ManifestSlice } from './state/manifest';

type Conflicted = EventPayload<'manifest.conflicted'>;

/** Follows the file on disk: a clean draft takes the new text, a dirty one gets a conflict. */
export function foldManifestFromFormation(
  state: StudioState,
  next: Pick<StudioState, 'capsules'>,
): Partial<StudioState> {
  const ed = state.editor;
  if (!ed) return {};
  const c = next.capsules[ed.id];
  if (!c) return { editor: null };
  if (c.manifestHash === ed.baseHash) {
    return c.issues === ed.issues ? {} : { editor: { ...ed, issues: c.issues } };
  }
  if (ed.draft === ed.baseSource) {
    return {
      editor: {
        ...ed,
        baseSource: c.manifestSource,
        baseHash: c.manifestHash,
        draft: c.manifestSource,
        issues: c.issues,
        conflict: null,
      },
    };
  }
  if (ed.saving || c.manifestSource === ed.draft) {
    return { editor: { ...ed, baseSource: c.manifestSource, baseHash: c.manifestHash, issues: c.issues } };
  }
  return {
    editor: {
      ...ed,
      conflict: { hash: c.manifestHash, message: `${c.manifestPath} changed on disk while you were editing it.` },
    },
  };
}

export function foldManifestConflicts(state: StudioState, events: Conflicted[]): Partial<StudioState> {
  const ed = state.editor;
  const hit = ed && [...events].reverse().find((e) => e.id === ed.id);
  if (!ed || !hit || hit.hash === ed.baseHash) return {};
  if (ed.draft === ed.baseSource) return {}; // formation.changed brings the new text to a clean draft
  return { editor: { ...ed, conflict: { hash: hit.hash, message: hit.message } } };
}

export const createManifestSlice: SliceCreator<ManifestSlice> = (set, get) => {
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
    editor: null,
    openEditor(id) {
      const c = id ? get().capsules[id] : undefined;
      if (!c) return set({ editor: null });
      if (get().editor?.id === id) return;
      set({
        editor: {
          id: c.id,
          baseSource: c.manifestSource,
          baseHash: c.manifestHash,
          draft: c.manifestSource,
          issues: c.issues,
          conflict: null,
          saving: false,
        },
      });
    },
    setDraft(text) {
      const ed = get().editor;
      if (ed) set({ editor: { ...ed, draft: text } });
    },
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
