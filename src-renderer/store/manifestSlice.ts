import type { EventPayload } from '../../src-shared/contract';
import { lazyActions } from './lazyActions';
import type { SliceCreator, StudioState } from './types';
import { MANIFEST_ACTIONS, type ManifestSlice } from './state/manifest';
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

export const createManifestSlice: SliceCreator<ManifestSlice> = (set, get, api) => ({
  // Saving, reloading and overwriting load on first use (manifestActions.ts).
  ...lazyActions(MANIFEST_ACTIONS, () => import('./manifestActions').then((m) => m.createManifestActions))(
    set,
    get,
    api,
  ),
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
});
