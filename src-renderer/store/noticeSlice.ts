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
    // The core may announce what a command's answer also says (a pinned port): show it once.
    set((s) => {
      if (s.notices.some((n) => n.message.includes(message))) return {};
      const rest = s.notices.filter((n) => !message.includes(n.message));
      return { notices: [...rest, notice].slice(-MAX_NOTICES) };
    });
  },
  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
});
