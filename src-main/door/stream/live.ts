import type { FastifyPluginAsync } from 'fastify';
import type { Session } from '../../runtime/api';
import { DEFAULT_KEEPALIVE_MS, DEFAULT_STREAM_LIFE_MS, type SseStream } from './sse';

// What each session's door keeps for its live streams: their settings (keepalive interval, life
// cap; tests shorten them) and the streams open right now, so the door can close them before it
// closes itself. An open SSE response would otherwise hold the server's close, and with it the
// session's end, forever.

export interface LiveSettings {
  keepaliveMs: number;
  maxLifeMs: number;
}

interface Live {
  settings: LiveSettings;
  open: Set<{ sse: SseStream; beforeDoorCloses(): void | Promise<void> }>;
}

/** How long a closing door waits for a stream's last words (a watch finishing its replay of the file). */
const LAST_WORDS_MS = 2000;

const bySession = new WeakMap<Session, Live>();

function liveOf(session: Session): Live {
  let live = bySession.get(session);
  if (!live) {
    live = { settings: { keepaliveMs: DEFAULT_KEEPALIVE_MS, maxLifeMs: DEFAULT_STREAM_LIFE_MS }, open: new Set() };
    bySession.set(session, live);
  }
  return live;
}

/** Sets a session's stream keepalive interval and life cap (defaults: 15 s, 30 min). */
export function configureStreams(session: Session, settings: Partial<LiveSettings>): void {
  Object.assign(liveOf(session).settings, settings);
}

export const streamSettings = (session: Session): LiveSettings => liveOf(session).settings;

/** Tracks an open stream until it closes; `beforeDoorCloses` writes its last words (waited for up to LAST_WORDS_MS). */
export function trackStream(
  session: Session,
  sse: SseStream,
  beforeDoorCloses: () => void | Promise<void> = () => {},
): void {
  const open = liveOf(session).open;
  const entry = { sse, beforeDoorCloses };
  open.add(entry);
  sse.onClose(() => open.delete(entry));
}

/** Number of streams a session has open (tests: a dropped client leaves none behind). */
export const openStreams = (session: Session): number => liveOf(session).open.size;

/** Closes a session's open streams when its door starts closing. */
export const liveStreamsPlugin: FastifyPluginAsync<{ session: Session }> = async (app, { session }) => {
  app.addHook('preClose', async () => {
    await Promise.all(
      [...liveOf(session).open].map(async (entry) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            entry.beforeDoorCloses(),
            new Promise<void>((r) => (timer = setTimeout(r, LAST_WORDS_MS))),
          ]);
        } catch {
          // Last words that fail are not said; the stream still closes.
        } finally {
          clearTimeout(timer);
          entry.sse.close();
        }
      }),
    );
  });
};
