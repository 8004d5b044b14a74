// The shape of the store's notice slice, below every slice file so the whole store's type
// (types.ts) can be built from the shapes without importing the slices themselves.

/** A message the user should read; errors stay until dismissed, others fade out. */
export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface NoticeSlice {
  notices: Notice[];
  notify(level: Notice['level'], message: string): void;
  dismissNotice(id: number): void;
}
