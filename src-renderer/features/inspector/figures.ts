import type { ModelPriceView } from '../../../src-shared/contract';

// How the inspector words money, time and sizes. Pure, so the tests pin the exact words.

/** What tokens cost at a model's list price (US dollars), or null when the price is not known. */
export function costUsd(price: ModelPriceView | null, tokensIn: number, tokensOut: number): number | null {
  if (!price) return null;
  return (tokensIn * price.inPerMTok + tokensOut * price.outPerMTok) / 1_000_000;
}

/** "$0.0042", "$1.27"; amounts under a hundredth of a cent read "< $0.0001" (never "$0.0000"). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '< $0.0001';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** "850 ms", "1.2 s", "2 min 5 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** "512 B", "1.5 KB", "2.0 MB" (1 KB = 1024 bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The size of the bytes a base64 text holds (padding and whitespace not counted). */
export function base64Bytes(b64: string): number {
  const clean = b64.replace(/\s+/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

export const formatTokens = (n: number): string => n.toLocaleString('en-US');
