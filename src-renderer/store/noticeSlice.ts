import type { SliceCreator } from './types';
import type { Notice, NoticeSlice } from './state/notice';
export type { Notice, NoticeSlice } from './state/notice';

let nextNoticeId = 1;
/** At most this many notices stack up; the oldest go first (an error outlives older notices). */
export const MAX_NOTICES = 3;

/** The notices kept when one more arrives: errors are dropped only when nothing else is left to drop. */
export function keepNotices(notices: Notice[], max = MAX_NOTICES): Notice[] {
  const out = [...notices];
  while (out.length > max) {
    const oldestNonError = out.findIndex((n) => n.level !== 'error');
    out.splice(oldestNonError >= 0 ? oldestNonError : 0, 1);
  }
  return out;
}

export const createNoticeSlice: SliceCreator<NoticeSlice> = (set) => ({
  notices: [],
  notify(level, message) {
    const notice = { id: nextNoticeId++, level, message };
    // The core may announce what a command's answer also says (a pinned port): show it once.
    set((s) => {
      if (s.notices.some((n) => n.message.includes(message))) return {};
      const rest = s.notices.filter((n) => !message.includes(n.message));
      return { notices: keepNotices([...rest, notice]) };
    });
  },
  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
});
