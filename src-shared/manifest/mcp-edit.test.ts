import { describe, expect, it } from 'vitest';
import { editManifestSource } from './edit-apply';

// An edge capsule -> tool server is written into the manifest and taken back exactly.

const TEMPLATE = `# A worker.
name: reader
role: worker

capabilities:
  network:
    # Where this capsule may connect.
    allow: []
`;
const BARE = `name: reader # the capsule
role: worker
`;
const local = { name: 'files', command: 'node', args: ['server.js', './data'] };
const remote = { name: 'search', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } };

describe('tool server edges in a manifest', () => {
  it('adds a local server entry, comments kept, and deleting it gives the file back byte for byte', () => {
    const drawn = editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: local }]);
    expect(drawn).toContain('# Where this capsule may connect.');
    expect(drawn).toContain('  mcp:\n    servers:\n      - name: files\n        command: node\n        args:');
    expect(drawn).toContain('allow: []');
    expect(editManifestSource(drawn, [{ op: 'removeMcpServer', name: 'files' }])).toBe(TEMPLATE);
  });

  it('creates capabilities when the manifest has none, and takes the whole section back', () => {
    const drawn = editManifestSource(BARE, [{ op: 'addMcpServer', server: remote }]);
    expect(drawn).toContain('url: https://mcp.example.com/mcp');
    expect(drawn).toMatch(
      /allow:\n\s+- https:\/\/mcp\.example\.com\/mcp # for tool server search \(list added with it\)/,
    );
    expect(editManifestSource(drawn, [{ op: 'removeMcpServer', name: 'search' }])).toBe(BARE);
  });

  it("adds a remote server's URL to the allow list and removes only the entry the edge added", () => {
    const drawn = editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: remote }]);
    expect(drawn).toContain('- https://mcp.example.com/mcp # for tool server search');
    expect(editManifestSource(drawn, [{ op: 'removeMcpServer', name: 'search' }])).toBe(TEMPLATE);
  });

  it('leaves an allow entry the user wrote (same URL, or one covering it) when the edge goes', () => {
    for (const entry of ['https://mcp.example.com/mcp', 'mcp.example.com']) {
      const mine = TEMPLATE.replace('allow: []', `allow:\n      - ${entry} # mine`);
      const drawn = editManifestSource(mine, [{ op: 'addMcpServer', server: remote }]);
      expect(drawn.match(/mcp\.example\.com/g)).toHaveLength(2); // the user's entry and the server url
      expect(editManifestSource(drawn, [{ op: 'removeMcpServer', name: 'search' }])).toBe(mine);
    }
  });

  it('keeps a second server and its allow entry when one edge goes', () => {
    const both = editManifestSource(TEMPLATE, [
      { op: 'addMcpServer', server: local },
      { op: 'addMcpServer', server: remote },
    ]);
    const one = editManifestSource(both, [{ op: 'removeMcpServer', name: 'files' }]);
    expect(one).toContain('name: search');
    expect(one).not.toContain('name: files');
    expect(one).toContain('# for tool server search');
    expect(editManifestSource(one, [{ op: 'removeMcpServer', name: 'search' }])).toBe(TEMPLATE);
  });

  it('narrows the tools and widens them back exactly', () => {
    const drawn = editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: local }]);
    const narrowed = editManifestSource(drawn, [{ op: 'setMcpTools', name: 'files', tools: ['read_text_file'] }]);
    expect(narrowed).toContain('tools: [ read_text_file ]'.replace('[ ', '[').replace(' ]', ']'));
    const none = editManifestSource(narrowed, [{ op: 'setMcpTools', name: 'files', tools: [] }]);
    expect(none).toContain('tools: []');
    expect(editManifestSource(none, [{ op: 'setMcpTools', name: 'files', tools: null }])).toBe(drawn);
  });

  it("keeps a hand-written entry's comments and list style when its tools change", () => {
    const src = `name: r
capabilities:
  mcp:
    servers:
      # the file server
      - name: files
        command: node
        tools: [a, b] # two of them
`;
    const out = editManifestSource(src, [{ op: 'setMcpTools', name: 'files', tools: ['a'] }]);
    expect(out).toContain('# the file server');
    expect(out).toContain('tools: [a] # two of them');
    expect(editManifestSource(out, [{ op: 'setMcpTools', name: 'files', tools: ['a', 'b'] }])).toBe(src);
  });

  it('does not add a second entry for a server already named, and refuses to narrow a server not there', () => {
    const drawn = editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: local }]);
    expect(editManifestSource(drawn, [{ op: 'addMcpServer', server: { ...local, args: ['other'] } }])).toBe(drawn);
    expect(() => editManifestSource(TEMPLATE, [{ op: 'setMcpTools', name: 'files', tools: [] }])).toThrow(
      /no server named files/,
    );
  });
});

describe('an edge drawn again with its tools', () => {
  it('writes the same text as drawing it and narrowing it', () => {
    const narrowed = editManifestSource(editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: local }]), [
      { op: 'setMcpTools', name: 'files', tools: ['a', 'b'] },
    ]);
    expect(editManifestSource(TEMPLATE, [{ op: 'addMcpServer', server: { ...local, tools: ['a', 'b'] } }])).toBe(
      narrowed,
    );
  });
});
