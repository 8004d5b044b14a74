import type { AccessEntryView } from '../../../src-shared/contract';
import { formatTime } from '../../ui/time';

// Words for the Expose panel (pure, tested beside it).

/** One access-log row: who, when, which method, outcome. */
export function accessRow(e: AccessEntryView): {
  when: string;
  who: string;
  method: string;
  outcome: string;
  ok: boolean;
} {
  const when = formatTime(e.time);
  // "no token" and "wrong token" only for the refusals that say so; other rows without a token id name none.
  const token =
    e.tokenId ?? (e.outcome === 'unauthorized' ? 'no token' : e.outcome.endsWith('wrong token') ? 'wrong token' : null);
  const who = token ? `${e.remote} · ${token}` : e.remote;
  const ok = e.outcome === 'ok' || e.outcome === 'stream';
  const outcome = `${e.outcome === 'ok' ? 'ok' : e.outcome} (${e.status}, ${e.durationMs} ms)`;
  return { when, who, method: e.method, outcome, ok };
}

/** The warning shown when the gateway listens beyond this machine. */
export function exposureWarning(host: string): string {
  return `The gateway listens on ${host}: other machines that can reach this one can call it. Every call still needs a capsule's token; prefer 127.0.0.1 with a tunnel or reverse proxy (and set the public origin).`;
}

/** A port field's value, or undefined when it is not a port. */
export function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n <= 65535 ? n : undefined;
}
