import { describe, expect, it } from 'vitest';
import { MANIFEST_DOCS } from './docs';
import { manifestOutline, outlineAt, outlinePaths } from './outline';
import { DRIVER_ARTIFACTS } from './schema';

describe('the manifest outline (completion and hover docs)', () => {
  it('documents every key of the schema, and nothing the schema lacks', () => {
    const paths = outlinePaths();
    expect(paths.length).toBeGreaterThan(90);
    expect(paths.filter((p) => !MANIFEST_DOCS[p])).toEqual([]);
    expect(Object.keys(MANIFEST_DOCS).filter((p) => !paths.includes(p))).toEqual([]);
  });

  it('reads keys, lists, enums and requiredness from the zod schema', () => {
    expect(Object.keys(manifestOutline.keys ?? {})).toEqual(
      expect.arrayContaining(['name', 'version', 'inference', 'lifecycle', 'capabilities']),
    );
    expect(outlineAt(['name'])).toMatchObject({ kind: 'text', required: true });
    expect(outlineAt(['description'])).toMatchObject({ kind: 'text' });
    expect(outlineAt(['description'])?.required).toBeUndefined();
    expect(outlineAt(['role'])?.values).toEqual(['orchestrator', 'worker', 'agent']);
    expect(outlineAt(['artifacts', '[]', 'runtime'])?.values).toEqual(['driver', 'tool', 'capsule']);
    expect(outlineAt(['exports', 'peer_tasks', 'accept'])?.values).toEqual(['true', 'false']);
    expect(outlineAt(['inference', 'driver', 'artifact'])?.values).toEqual(Object.keys(DRIVER_ARTIFACTS));
    expect(outlineAt(['inference', 'harness', 'interrupt'])).toMatchObject({ kind: 'map', values: ['sigint', 'none'] });
    expect(outlineAt(['lifecycle', 'idle_timeout'])?.forms).toEqual(['number', 'text']);
    expect(outlineAt(['inference', 'rehearsal', 'replies', '[]', 'turns', '[]', 'stop'])?.values).toEqual([
      'end_turn',
      'max_tokens',
      'tool_use',
    ]);
    expect(outlineAt(['nope'])).toBeUndefined();
    expect(outlineAt(['name', 'deeper'])).toBeUndefined();
  });
});
