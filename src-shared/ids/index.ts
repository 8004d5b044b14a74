// Time-ordered ids (UUIDv7 layout without dashes): 48-bit ms timestamp, version nibble, random.
// Sorting ids as strings sorts them by creation time, which session addresses rely on.

// Random bytes come from a pool refilled 4 KiB at a time: one getRandomValues call per id costs
// more than the rest of a task's bookkeeping on the door's hot path.
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolAt = POOL_SIZE;

let lastMs = 0;
let lastTs = '';
let seq = 0;

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** n bytes of the pool as hex, the first one's top bits set to the UUID variant when `variant`. */
function randomHex(n: number, variant: boolean): string {
  if (poolAt + n > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let out = HEX[variant ? (pool[poolAt] & 0x3f) | 0x80 : pool[poolAt]];
  for (let i = 1; i < n; i++) out += HEX[pool[poolAt + i]];
  poolAt += n;
  return out;
}

/** 32 lowercase hex characters, increasing with time (and within one millisecond). */
export function timeOrderedHex(now = Date.now()): string {
  // A clock that stepped back keeps the last millisecond, so ids still increase.
  if (now <= lastMs) seq++;
  else {
    lastMs = now;
    seq = 0;
    // The timestamp's hex is the same for every id of one millisecond.
    lastTs = now.toString(16).padStart(12, '0');
  }
  // 12 bits of sequence after the version nibble keep ids from one millisecond in order.
  const s = seq & 0xfff;
  const seqHex = s < 0x10 ? `00${s.toString(16)}` : s < 0x100 ? `0${s.toString(16)}` : s.toString(16);
  return `${lastTs}7${seqHex}${randomHex(8, true)}`;
}

export const newSessionId = () => `ses_${timeOrderedHex()}`;
export const newTaskId = () => `tsk_${timeOrderedHex()}`;
export const newContextId = () => `ctx_${timeOrderedHex()}`;
export const newMessageId = () => `msg_${timeOrderedHex()}`;

/** Short random id with a prefix, e.g. `dlg_7b31de`. */
export function shortId(prefix: string, bytes = 3): string {
  return `${prefix}_${randomHex(bytes, false)}`;
}

export const SESSION_ID_RE = /^ses_[0-9a-f]{32}$/;
export const TASK_ID_RE = /^tsk_[0-9a-f]{32}$/;
