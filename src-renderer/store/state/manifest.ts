import type { IssueView } from '../../../src-shared/contract';

// The shape of the store's manifest slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** The manifest being edited in the side panel. The draft is never dropped behind the user's back. */
export interface ManifestEditor {
  id: string;
  /** The text and hash the draft started from (what is on disk, as far as we know). */
  baseSource: string;
  baseHash: string;
  draft: string;
  /** Issues the core reported for baseSource. */
  issues: IssueView[];
  /** Set when the file changed on disk while the draft had unsaved edits, or a save was refused. */
  conflict: { hash: string; message: string } | null;
  saving: boolean;
}

export interface ManifestSlice {
  editor: ManifestEditor | null;
  openEditor(id: string | null): void;
  setDraft(text: string): void;
  saveManifest(): Promise<void>;
  reloadManifest(): Promise<void>;
  overwriteManifest(): Promise<void>;
}

/** The actions whose code loads on first use (manifestActions.ts, see lazyActions.ts). */
export const MANIFEST_ACTIONS = ['saveManifest', 'reloadManifest', 'overwriteManifest'] as const;
