import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { manifestFacts, summarizeManifest } from './manifest-view';
import type { CapsuleStatus } from './sessions';
import { capsuleView } from './view';
import type { LoadedCapsule } from './workspace';

// A node shows what runs: while a running capsule's file on disk does not load, its name, role,
// driver and model come from the session's own manifest, with the file's issues beside them.

const loaded = (source: string): LoadedCapsule => ({
  id: 'researcher',
  manifestPath: 'capsules/researcher.yaml',
  file: '/ws/capsules/researcher.yaml',
  position: { x: 0, y: 0 },
  source,
  hash: 'h',
  summary: summarizeManifest(source, '/ws/capsules/researcher.yaml', {}),
});
const running: CapsuleStatus = {
  id: 'researcher',
  state: 'idle',
  url: 'http://127.0.0.1:4000',
  queued: 0,
  tasks: 3,
  running: null,
};
const stopped: CapsuleStatus = { id: 'researcher', state: 'stopped', queued: 0, tasks: 0, running: null };
const launched = manifestFacts({
  name: 'researcher',
  role: 'worker',
  inference: { model: 'rehearsal', driver: { artifact: 'capsule/driver-rehearsal' } },
});

const example = readFileSync(
  new URL('../../resources/example-workspace/capsules/researcher.yaml', import.meta.url),
  'utf8',
);
const unclosed = 'name: researcher\nlimits:\n  max_turns: 3\n  bad: [unclosed\n';

describe('capsuleView', () => {
  it("shows a running capsule whose file does not parse as its session runs it, with the file's issue", () => {
    const view = capsuleView(loaded(unclosed), running, undefined, launched);
    expect(view).toMatchObject({ name: 'researcher', role: 'worker', driver: 'rehearsal', rehearsal: true });
    expect(view.issues[0].message).toBe('a [ list is not closed with ]');
  });

  it('shows a stopped capsule, or one whose file loads, as its file says', () => {
    const broken = capsuleView(loaded(unclosed), stopped, undefined, launched);
    expect(broken).toMatchObject({ name: 'researcher', role: null, driver: null });
    const renamed = example.replace('name: researcher', 'name: researcher-two');
    const edited = capsuleView(loaded(renamed), running, undefined, launched);
    expect(edited.issues).toEqual([]);
    expect(edited.name).toBe('researcher-two');
  });
});
