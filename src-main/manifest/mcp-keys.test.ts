import { describe, expect, it } from 'vitest';
import { formatIssues, parseManifest, type ManifestLoadResult } from './index';

// capabilities.mcp.servers: the keys a capsule declares its MCP servers with, checked by the one
// manifest checker (the Studio's editor runs the same one).

const HEAD = `name: tools-user
version: "0.1.0"
inference:
  driver: { artifact: capsule/driver-rehearsal }
capabilities:
  network:
    allow: [https://mcp.example.com/mcp]
  mcp:
    servers:
`;

function load(
  servers: string,
  env: Record<string, string> = { FILES_TOKEN: 'tok-secret-1', SEARCH_KEY: 'search-secret-2' },
): ManifestLoadResult {
  return parseManifest(HEAD + servers, 'capsule.yaml', env);
}

function problems(r: ManifestLoadResult): string {
  if (r.ok) throw new Error('expected the manifest to be refused');
  return formatIssues(r.issues);
}

describe('capabilities.mcp.servers', () => {
  it('loads a local and a remote server, with ${VAR} secrets in env and headers', () => {
    const r = load(
      `      - name: files
        command: node
        args: [server.js, ./data]
        env:
          FILES_TOKEN: "\${FILES_TOKEN}"
          PORT: \${FILES_PORT_NUMBER}
        cwd: ./tools
        tools: [read_file, list_directory]
      - name: search
        url: https://mcp.example.com/mcp
        headers: { Authorization: "Bearer \${SEARCH_KEY}" }
        timeout: 30s
`,
      { FILES_TOKEN: 'tok-secret-1', SEARCH_KEY: 'search-secret-2', FILES_PORT_NUMBER: '8080' },
    );
    if (!r.ok) throw new Error(formatIssues(r.issues));
    const [files, search] = r.manifest.capabilities!.mcp!.servers;
    expect(files).toEqual({
      name: 'files',
      command: 'node',
      args: ['server.js', './data'],
      env: { FILES_TOKEN: 'tok-secret-1', PORT: '8080' },
      cwd: './tools',
      tools: ['read_file', 'list_directory'],
    });
    expect(search).toEqual({
      name: 'search',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer search-secret-2' },
      timeout: '30s',
    });
    expect(r.secrets).toEqual(expect.arrayContaining(['tok-secret-1', 'search-secret-2']));
  });

  it('is optional: a manifest without it loads as before', () => {
    const r = parseManifest(HEAD.replace(/ {2}mcp:\n {4}servers:\n/, ''), 'capsule.yaml', {});
    if (!r.ok) throw new Error(formatIssues(r.issues));
    expect(r.manifest.capabilities?.mcp).toBeUndefined();
  });

  it('refuses a server with both or neither of command and url, at its line', () => {
    const text = problems(
      load(`      - name: both
        command: node
        url: https://mcp.example.com/mcp
      - name: neither
        tools: [x]
`),
    );
    expect(text).toContain(
      'capsule.yaml:10:9: capabilities.mcp.servers[0]: a server has exactly one of command (a local process) or url (a remote server)',
    );
    expect(text).toContain('capabilities.mcp.servers[1]: a server has exactly one of command');
  });

  it('refuses keys of the other kind of server, a bad name, a duplicate name and a misspelt key', () => {
    const text = problems(
      load(`      - name: remote
        url: https://mcp.example.com/mcp
        args: [x]
      - name: local
        command: node
        headers: { X-A: b }
      - name: remote
        command: node
      - name: has_underscore
        command: node
      - name: typo
        comand: node
`),
    );
    expect(text).toContain(
      'capabilities.mcp.servers[0].args: args is for a local server (command); a remote one (url) has headers',
    );
    expect(text).toContain('capabilities.mcp.servers[1].headers: headers are for a remote server (url)');
    expect(text).toContain('capabilities.mcp.servers[2].name: another server is already named "remote"');
    expect(text).toContain('capabilities.mcp.servers[3].name');
    expect(text).toContain('letters, digits or dashes');
    expect(text).toMatch(
      /capabilities\.mcp\.servers\[4\]\.comand: unknown key "comand" \(hint: did you mean "command"\?/,
    );
  });

  it('refuses a url that is not http(s) and an env name that is not a variable name, never quoting a secret', () => {
    const text = problems(
      load(`      - name: ftp
        url: ftp://mcp.example.com/x
      - name: envs
        command: node
        env: { "BAD NAME": "\${FILES_TOKEN}" }
`),
    );
    expect(text).toContain('capabilities.mcp.servers[0].url');
    expect(text).toContain('capabilities.mcp.servers[1].env');
    expect(text).not.toContain('tok-secret-1');
  });
});
