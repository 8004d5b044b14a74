import type { SliceCreator } from './types';

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

let nextNoticeId = 1;
const MAX_NOTICES = 5;

export const createNoticeSlice: SliceCreator<NoticeSlice> = (set) => ({
  notices: [],
  notify(level, message) {
    const notice = { id: nextNoticeId++, level, message };
    set((s) => ({ notices: [...s.notices, notice].slice(-MAX_NOTICES) }));
  },
  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
});
