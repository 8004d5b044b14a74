import { join } from 'node:path';
import { parse } from 'yaml';
import { CoreError, type CommandArgs, type CapsuleView, type Position } from '../../src-shared/contract';
import { editManifestSource } from '../manifest';
import type { StudioContext } from './context';
import { existsSync } from './files';
import { capsuleView } from './view';

// Duplicate a capsule: the same manifest text under a new name, beside the original. The copy
// keeps its own allow list (the edges out of it come along: they are part of its manifest) but
// no edge into it is made: that would edit other capsules' manifests, which the user did not ask
// for. Its pinned port goes, since two sessions cannot share one port; connecting an orchestrator
// to the copy pins a fresh one.

const NAME_MAX = 63;
const COPY = /-copy(?:-\d+)?$/;

/**
 * The first free name among `<base>-copy`, `<base>-copy-2`, … (a copy of `a-copy` is `a-copy-2`,
 * not `a-copy-copy`), cut to the 63 characters a manifest name allows.
 */
export function copyName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(COPY, '') || 'capsule';
  for (let n = 1; n < 10_000; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    const candidate = `${base.slice(0, NAME_MAX - suffix.length).replace(/[._-]+$/, '')}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
  throw new CoreError('conflict', `No free name for a copy of ${name}.`);
}

const BOX = { w: 260, h: 200 };

/** To the right of the original, then down that column, on the first spot no node covers. */
export function besideSpot(from: Position, others: readonly Position[]): Position {
  const free = (p: Position) => !others.some((o) => Math.abs(o.x - p.x) < BOX.w && Math.abs(o.y - p.y) < BOX.h);
  for (let row = 0; row < 50; row++) {
    const p = { x: from.x + BOX.w + 20, y: from.y + row * BOX.h };
    if (free(p)) return p;
  }
  return { x: from.x + BOX.w + 20, y: from.y };
}

export function duplicateCapsule(
  ctx: StudioContext,
  { id, name, position }: CommandArgs<'capsule.duplicate'>,
): CapsuleView {
  const ws = ctx.workspace();
  const original = ws.capsule(id);
  const snap = ws.snapshot();
  const taken = new Set(snap.capsules.flatMap((c) => [c.id, c.summary.name ?? '']).map((n) => n.toLowerCase()));
  const free = (n: string) => !taken.has(n.toLowerCase()) && !existsSync(join(ws.dir, 'capsules', `${n}.yaml`));
  let chosen = name;
  if (chosen !== undefined && !free(chosen))
    throw new CoreError('conflict', `A capsule named ${chosen} is already in the formation.`);
  if (chosen === undefined) {
    const alsoTaken = new Set(taken);
    // A name whose manifest file is left over on disk is taken too.
    for (;;) {
      const next = copyName(original.summary.name ?? original.id, alsoTaken);
      if (free(next)) {
        chosen = next;
        break;
      }
      alsoTaken.add(next.toLowerCase());
    }
  }
  const { source } = ws.readManifestNow(id);
  let copy: string;
  try {
    // A `network` section that only pinned the port goes whole, rather than stay as `network: {}`.
    const network = (parse(source) as { network?: Record<string, unknown> } | null)?.network;
    const onlyPort = network && typeof network === 'object' && Object.keys(network).every((k) => k === 'internal_port');
    copy = editManifestSource(source, [
      { op: 'set', path: ['name'], value: chosen },
      { op: 'delete', path: onlyPort ? ['network'] : ['network', 'internal_port'] },
    ]);
  } catch (err) {
    throw new CoreError('manifest_invalid', `Cannot copy ${original.manifestPath}: ${(err as Error).message}`);
  }
  const manifest = `capsules/${chosen}.yaml`;
  ws.createManifest(manifest, copy);
  const others = [...snap.capsules.map((c) => c.position), ...snap.remotes.map((r) => r.position)];
  ws.addNode('capsules', { id: chosen, manifest, position: position ?? besideSpot(original.position, others) });
  ctx.changed();
  return capsuleView(ws.capsule(chosen), ctx.sessions.status(chosen));
}
