import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStudio, type TestStudio } from './test-studio';

// Tool servers (MCP) on the canvas: the node lives in formation.yaml, the edge is the capsule's
// manifest entry; drawing and deleting give the files back byte for byte; tools are listed with the SDK.

const FS_SERVER = resolve(__dirname, '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

let studio: TestStudio | undefined;
afterEach(async () => {
  await studio?.dispose();
  studio = undefined;
});

const read = (s: TestStudio, rel: string) => readFileSync(join(s.workspace, rel), 'utf8');

describe('tool servers', () => {
  it('adds a node, draws an edge into the manifest, narrows it, and takes it back exactly', async () => {
    studio = await createTestStudio();
    const s = studio;
    const before = read(s, 'capsules/writer.yaml');
    const formationBefore = read(s, 'formation.yaml');
    const node = await s.core.invoke('mcp.addServer', {
      name: 'files',
      server: { command: 'node', args: [FS_SERVER, '.'] },
      position: { x: 600, y: 40 },
    });
    expect(node).toMatchObject({ id: 'mcp:files', name: 'files', command: 'node' });
    expect(read(s, 'formation.yaml')).toContain('tool_servers:\n  - id: files\n    command: node');

    const drawn = await s.core.invoke('edge.connect', { source: 'writer', target: 'mcp:files' });
    expect(drawn.edge).toMatchObject({ source: 'writer', target: 'mcp:files', targetKind: 'tool_server' });
    const written = read(s, 'capsules/writer.yaml');
    // The manifest sits in capsules/: the server runs in the workspace folder, as formation.yaml says.
    expect(written).toMatch(/mcp:\n\s+servers:\n\s+- name: files\n\s+command: node\n\s+args:[\s\S]*cwd: \.\./);

    await s.core.invoke('edge.setTools', { source: 'writer', target: 'mcp:files', tools: ['list_directory'] });
    expect(read(s, 'capsules/writer.yaml')).toContain('tools: [list_directory]');
    expect(
      (await s.core.invoke('formation.get', undefined)).edges.find((e) => e.target === 'mcp:files')?.tools,
    ).toEqual(['list_directory']);

    await s.core.invoke('edge.disconnect', { source: 'writer', target: 'mcp:files' });
    expect(read(s, 'capsules/writer.yaml')).toBe(before);

    // Deleting the node takes its edges (the permissions) with it.
    await s.core.invoke('edge.connect', { source: 'writer', target: 'mcp:files', tools: ['read_text_file'] });
    await s.core.invoke('mcp.removeServer', { id: 'mcp:files' });
    expect(read(s, 'capsules/writer.yaml')).toBe(before);
    expect(read(s, 'formation.yaml')).toBe(formationBefore);
  });

  it("edits a server's definition in formation.yaml and in the manifest of every capsule with an edge to it, tools kept", async () => {
    studio = await createTestStudio();
    const s = studio;
    await s.core.invoke('mcp.addServer', {
      name: 'files',
      server: { command: 'node', args: [FS_SERVER, '.'] },
      position: { x: 0, y: 0 },
    });
    await s.core.invoke('edge.connect', { source: 'writer', target: 'mcp:files', tools: ['read_text_file'] });
    const { updated } = await s.core.invoke('mcp.updateServer', {
      id: 'mcp:files',
      server: { command: 'node', args: [FS_SERVER, 'docs'], env: { LEVEL: '${LOG_LEVEL}' } },
    });
    expect(updated).toEqual(['writer']);
    const text = read(s, 'capsules/writer.yaml');
    expect(text).toMatch(/- docs\n/);
    expect(text).toContain('LEVEL: ${LOG_LEVEL}');
    expect(text).toContain('tools: [read_text_file]');
    expect(read(s, 'formation.yaml')).toMatch(/- docs\n[\s\S]*LEVEL: \$\{LOG_LEVEL\}/);
  });

  it('draws a server only a manifest names, and leaves no external edge for its allow entry', async () => {
    studio = await createTestStudio();
    const s = studio;
    const file = join(s.workspace, 'capsules/writer.yaml');
    writeFileSync(
      file,
      `${read(s, 'capsules/writer.yaml').replace('allow: []', 'allow: [https://mcp.example.com/mcp]')}`,
    );
    const text = readFileSync(file, 'utf8');
    const withMcp = text.includes('capabilities:')
      ? text.replace(
          'capabilities:\n',
          'capabilities:\n  mcp:\n    servers:\n      - name: search\n        url: https://mcp.example.com/mcp\n',
        )
      : `${text}capabilities:\n  mcp:\n    servers:\n      - name: search\n        url: https://mcp.example.com/mcp\n`;
    writeFileSync(file, withMcp);
    const view = await s.nextView((v) => v.edges.some((e) => e.target === 'mcp:search'));
    expect(view.toolServers).toEqual([
      expect.objectContaining({ id: 'mcp:search', url: 'https://mcp.example.com/mcp', derived: true }),
    ]);
    expect(view.edges.filter((e) => e.source === 'writer' && e.targetKind === 'external')).toEqual([]);
  });

  it('lists the tools of a local server with descriptions, and fails with one line when it cannot start', async () => {
    studio = await createTestStudio();
    const s = studio;
    await s.core.invoke('mcp.addServer', {
      name: 'files',
      server: { command: 'node', args: [FS_SERVER, '.'] },
      position: { x: 0, y: 0 },
    });
    const listed = await s.core.invoke('mcp.listTools', { id: 'mcp:files' });
    expect(listed.tools.map((t) => t.name)).toContain('read_text_file');
    expect(listed.tools.find((t) => t.name === 'read_text_file')?.description).toBeTruthy();

    await s.core.invoke('mcp.addServer', {
      name: 'broken',
      server: { command: 'node', args: ['-e', 'process.exit(3)'] },
      position: { x: 0, y: 0 },
    });
    await expect(s.core.invoke('mcp.listTools', { id: 'mcp:broken' })).rejects.toThrow(
      /MCP server "broken" could not be reached/,
    );
    await s.core.invoke('mcp.addServer', {
      name: 'missing',
      server: { command: 'no-such-program-here' },
      position: { x: 0, y: 0 },
    });
    await expect(s.core.invoke('mcp.listTools', { id: 'mcp:missing' })).rejects.toThrow(
      /could not be reached.*ENOENT|could not be reached/,
    );
    await s.core.invoke('mcp.addServer', {
      name: 'secret',
      server: { command: 'node', env: { TOKEN: '${NOT_SET_ANYWHERE}' } },
      position: { x: 0, y: 0 },
    });
    await expect(s.core.invoke('mcp.listTools', { id: 'mcp:secret' })).rejects.toThrow(/needs \$\{NOT_SET_ANYWHERE\}/);
  }, 30_000);
});
