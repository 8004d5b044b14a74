import type { ResidueItem } from '../runtime';

// How the terminal names what a canceled task or a stopped session leaves behind (seed 000):
// a detached shell command still running, a delegated sub-capsule that was ended.

export function residueLine(item: ResidueItem | Record<string, unknown>): string {
  const r = item as Record<string, unknown>;
  if (r.kind === 'detached_shell') return `running: ${String(r.command)}`;
  if (r.kind === 'delegation') return `ended: ${String(r.capsule)} (${String(r.child_session_id)})`;
  return `left: ${JSON.stringify(item)}`;
}
