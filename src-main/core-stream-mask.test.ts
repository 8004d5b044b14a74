import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './workspace/test-studio';

// The Studio's live path gets the masked frames too: a ${VAR} value that spans two streamed frames
// of the writer never reaches a trace.appended or task.updated event in clear.

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

// The rehearsal stream sends "fragment 1 ", "fragment 2 ", …: this value starts in the third.
const SECRET = 'ment 3 fragment 4';

describe('the core and streamed secrets', () => {
  it('trace.appended and task.updated carry the masked frames only', async () => {
    studio = await createTestStudio({ env: { WRITER_TAGLINE: SECRET } });
    const file = join(studio.workspace, 'capsules', 'writer.yaml');
    const text = readFileSync(file, 'utf8')
      .replace('description: Drafts short paragraphs.', 'description: "${WRITER_TAGLINE}"')
      .replace(
        '          - text: "Draft: a short, clear paragraph that answers the request."',
        '          - text: "Draft."\n            stream: { frames: 6, per_second: 1000 }',
      );
    writeFileSync(file, text);
    await studio.core.invoke('capsule.launch', { id: 'writer' });
    const ended = studio.next('trace.appended', (t) => t.events.some((e) => e.event_type === 'task_end'), 20_000);
    const task = await studio.core.invoke('task.send', { capsuleId: 'writer', text: 'stream it' });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    await ended;

    const batches = studio.events
      .filter((e) => e.event === 'trace.appended')
      .flatMap((e) => (e.payload as { events: Array<Record<string, unknown>> }).events);
    const frames = batches.filter((e) => e.event_type === 'frame').map((e) => e.text as string);
    expect(frames.join('')).toBe('fragment 1 fragment 2 frag*** fragment 5 fragment 6 ');
    expect(JSON.stringify(studio.events)).not.toContain(SECRET);
  });
});
