import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../launch';
import { rpc, scene, traceOf, userMessage, type Scene } from '../runtime/tools/formation.fixture';
import { runWorkspaceTests } from './index';

// The MCP example workspace (examples/mcp-tools) as a user runs it: live, its librarian reads the
// library through the reference file server, is refused a file outside it, and passes an image
// on; its saved test passes offline with the servers' programs gone (their answers played back).

const EXAMPLE = resolve(__dirname, '../../examples/mcp-tools');
let s: Scene;
afterEach(async () => {
  await s?.dispose();
});

describe('the MCP example workspace', () => {
  it('runs live against the reference servers: reads the library, is refused outside it, shows the image', async () => {
    s = scene();
    const session = await startSession({
      manifestPath: join(EXAMPLE, 'capsules', 'librarian.yaml'),
      env: s.env,
      port: 0,
    });
    s.sessions.push(session);
    const { task } = await rpc(session.url, 'SendMessage', {
      message: userMessage('What is in the library?'),
      configuration: { returnImmediately: false },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const [text, image] = task.artifacts[0].parts;
    expect(text.text).toContain('- files__list_directory: [FILE] reading-list.md\n[FILE] welcome.md');
    expect(text.text).toContain('# Welcome to the library');
    expect(text.text).toMatch(/files__read_text_file failed: .*Access denied - path outside allowed directories/);
    expect(image).toMatchObject({ mediaType: 'image/png', raw: expect.stringMatching(/^iVBORw0KGgo/) });
    expect(
      traceOf(session)
        .filter((l) => l.event_type === 'mcp_server_start')
        .map((l) => l.mcp_server)
        .sort(),
    ).toEqual(['files', 'pictures']);
  });

  it('its saved test passes offline, the servers played back from the recording', async () => {
    s = scene();
    const copy = join(s.dir, 'mcp-tools');
    cpSync(EXAMPLE, copy, { recursive: true });
    const manifest = join(copy, 'capsules', 'librarian.yaml');
    writeFileSync(
      manifest,
      readFileSync(manifest, 'utf8').replaceAll('node_modules/@modelcontextprotocol', 'no-such-folder'),
    );
    const outcomes = await runWorkspaceTests(copy);
    expect(outcomes.map((o) => [o.name, o.passed, o.error, o.mismatches])).toEqual([
      ['reads-the-library', true, undefined, []],
    ]);
  });
});
