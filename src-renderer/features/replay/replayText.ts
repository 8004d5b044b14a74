import type { ReplaySpeed } from '../../store';

/** "0.25×", "10×", "Instant". */
export const speedLabel = (s: ReplaySpeed) => (s === 'instant' ? 'Instant' : `${s}×`);

/** A run time offset: "850 ms", "12.4 s", "3 min 05 s". */
export function offsetLabel(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')} s`;
}
