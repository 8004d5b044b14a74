import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, parseDocument, stringify } from 'yaml';
import { DRIVER_ARTIFACTS } from '../../src-shared/manifest';
import type { RecordedCapsule } from './gather';
import type { RehearsalScript } from './script';

// Writes a rehearsal's manifests: each capsule's own manifest as it is on disk now (its network,
// exports, accepts, skills, lifecycle stay), with `inference` switched to the rehearsal driver and
// its script, and the driver artifacts (gateway endpoint and key) left out, so the replay needs no
// key and no network. A manifest no longer on this machine is rebuilt from its name and version.

export const REHEARSAL_DRIVER = 'capsule/driver-rehearsal';

/** Inference settings that still shape a replay (limits, spend ceiling, input wait): kept as written. */
const KEPT = ['max_tokens', 'max_turns', 'budget', 'input_timeout'] as const;

export function rehearsalInference(
  capsule: RecordedCapsule,
  script: RehearsalScript,
  kept: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    transport: 'embedded',
    // The recorded model's name stays (budgets, prices and exported spans name it); the driver is the rehearsal.
    model: capsule.model || 'rehearsal',
    driver: { artifact: REHEARSAL_DRIVER },
    ...kept,
    rehearsal: script,
  };
}

/** The manifest text for the replay of one capsule; `notes` says what the reader should know. */
export function rehearsalManifestText(capsule: RecordedCapsule, script: RehearsalScript, notes: string[]): string {
  const path = capsule.manifestPath;
  const source = path && existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const doc = source ? parseDocument(source) : undefined;
  if (!doc || doc.errors.length || !isMap(doc.contents)) {
    if (path)
      notes.push(
        `${capsule.capsule}: manifest ${path} ${source === undefined ? 'is not on this machine' : 'does not read'}; the replay's manifest is rebuilt from the trace (name, version, script only)`,
      );
    return stringify({
      name: capsule.capsule,
      version: capsule.version || '0.0.0',
      inference: rehearsalInference(capsule, script),
    });
  }
  const kept: Record<string, unknown> = {};
  for (const key of KEPT) {
    const node = doc.getIn(['inference', key], true) as { toJSON?: () => unknown } | undefined;
    const value = node && typeof node === 'object' && node.toJSON ? node.toJSON() : node;
    if (value !== undefined && value !== null) kept[key] = value;
  }
  doc.set('inference', doc.createNode(rehearsalInference(capsule, script, kept)));
  const artifacts = doc.get('artifacts', true);
  if (isSeq(artifacts)) {
    artifacts.items = artifacts.items.filter((item) => {
      const a = (item as { toJSON?: () => unknown }).toJSON?.() as
        { name?: string; runtime?: string; gateway?: unknown } | undefined;
      return !(a && (a.runtime === 'driver' || (a.name ?? '') in DRIVER_ARTIFACTS || a.gateway));
    });
  }
  const text = doc.toString();
  if (/(^|[^$])\$\{/.test(text))
    notes.push(
      `${capsule.capsule}: its manifest still names environment variables (\${…}); set them to run the replay`,
    );
  return text;
}

export interface WrittenRehearsal {
  dir: string;
  manifests: Record<string, string>;
}

/** Writes `<dir>/formation.yaml` and `<dir>/<capsule>/murmur.yaml` for every capsule. */
export function writeRehearsal(dir: string, entries: { capsule: RecordedCapsule; text: string }[]): WrittenRehearsal {
  mkdirSync(dir, { recursive: true });
  const manifests: Record<string, string> = {};
  const capsules = entries.map(({ capsule, text }, i) => {
    const rel = `${capsule.capsule}/murmur.yaml`;
    mkdirSync(join(dir, capsule.capsule), { recursive: true });
    writeFileSync(join(dir, rel), text);
    manifests[capsule.capsule] = join(dir, rel);
    return { id: capsule.capsule, manifest: rel, position: { x: i === 0 ? 0 : 320, y: i === 0 ? 0 : (i - 1) * 160 } };
  });
  writeFileSync(
    join(dir, 'formation.yaml'),
    `# A rehearsal made by capsule rehearse: every capsule replays its recording offline.\n${stringify({ capsules, remotes: [] })}`,
  );
  return { dir, manifests };
}
