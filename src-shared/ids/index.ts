// Time-ordered ids (UUIDv7 layout without dashes): 48-bit ms timestamp, version nibble, random.
// Sorting ids as strings sorts them by creation time, which session addresses rely on.

// Random bytes come from a pool refilled 4 KiB at a time: one getRandomValues call per id costs
// more than the rest of a task's bookkeeping on the door's hot path.
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolAt = POOL_SIZE;

function randomBytes(n: number): Uint8Array {
  if (poolAt + n > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const out = pool.slice(poolAt, poolAt + n);
  poolAt += n;
  return out;
}

let lastMs = 0;
let seq = 0;

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function hex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

/** 32 lowercase hex characters, increasing with time (and within one millisecond). */
export function timeOrderedHex(now = Date.now()): string {
  if (now <= lastMs) {
    now = lastMs;
    seq++;
  } else {
    lastMs = now;
    seq = 0;
  }
  const rand = randomBytes(8);
  const ts = now.toString(16).padStart(12, '0');
  // 12 bits of sequence after the version nibble keep ids from one millisecond in order.
  const seqHex = (seq & 0xfff).toString(16).padStart(3, '0');
  rand[0] = (rand[0] & 0x3f) | 0x80;
  return `${ts}7${seqHex}${hex(rand)}`;
}

export const newSessionId = () => `ses_${timeOrderedHex()}`;
export const newTaskId = () => `tsk_${timeOrderedHex()}`;
export const newContextId = () => `ctx_${timeOrderedHex()}`;
export const newMessageId = () => `msg_${timeOrderedHex()}`;

/** Short random id with a prefix, e.g. `dlg_7b31de`. */
export function shortId(prefix: string, bytes = 3): string {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return `${prefix}_${hex(b)}`;
}

export const SESSION_ID_RE = /^ses_[0-9a-f]{32}$/;
export const TASK_ID_RE = /^tsk_[0-9a-f]{32}$/;
