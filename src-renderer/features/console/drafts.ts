import type { PickedFile } from './readFiles';

// What is typed for a capsule but not sent stays with that capsule while another one is picked
// in the console (the message, the data part and whether it is open, the attached files), as it
// does in every chat tool. Kept for this window only, never written anywhere. Bounded: one draft
// per capsule and workspace, at most MAX_DRAFTS (the oldest dropped), each holding at most the
// files the composer itself allows (MAX_FILE_BYTES in all).

export interface Draft {
  text: string;
  dataText: string;
  dataOpen: boolean;
  files: PickedFile[];
}

export const MAX_DRAFTS = 64;
const drafts = new Map<string, Draft>();

export const draftKey = (dir: string | undefined, capsuleId: string | null): string =>
  `${dir ?? ''}\u0000${capsuleId ?? ''}`;

export function readDraft(key: string): Draft | undefined {
  return drafts.get(key);
}

/** Keeps a draft (an empty one is forgotten); the newest goes last, so the first is the oldest. */
export function keepDraft(key: string, d: Draft): void {
  drafts.delete(key);
  if (!d.text && !d.dataText && !d.dataOpen && d.files.length === 0) return;
  drafts.set(key, d);
  while (drafts.size > MAX_DRAFTS) drafts.delete(drafts.keys().next().value as string);
}
