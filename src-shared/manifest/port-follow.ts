import { loopbackPort } from './allow';
import type { ManifestEditOp } from './edit-ops';

// An edge orchestrator -> worker is an allow entry naming the worker's port on this machine. When
// the worker's port changes (a new network.internal_port, or a relaunch on another port when none
// is pinned), every entry that named the old port follows it, in place and spelt as written, so
// the edge stays an edge instead of turning into an unknown "external address".

/** `entry` with its loopback port replaced by `to` (same host spelling, scheme and path), or undefined when it names no loopback port. */
export function movedEntry(entry: string, to: number): string | undefined {
  if (loopbackPort(entry) === undefined) return undefined;
  const url = /^([a-z][a-z0-9+.-]*:\/\/(?:\[[^\]]*\]|[^/:]+):)\d{1,5}(.*)$/i.exec(entry);
  if (url) return `${url[1]}${to}${url[2]}`;
  const hostPort = /^(.+:)\d{1,5}$/.exec(entry);
  return hostPort ? `${hostPort[1]}${to}` : undefined;
}

/** The edits that move every allow entry naming loopback port `from` to port `to`. */
export function followPortOps(allow: readonly string[], from: number, to: number): ManifestEditOp[] {
  if (from === to) return [];
  const ops: ManifestEditOp[] = [];
  allow.forEach((entry, i) => {
    if (loopbackPort(entry) !== from) return;
    const next = movedEntry(entry, to);
    if (next) ops.push({ op: 'set', path: ['capabilities', 'network', 'allow', String(i)], value: next });
  });
  return ops;
}
