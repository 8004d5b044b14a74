import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import config from '../electron.vite.config';
import { admitInlineScripts } from './renderer-csp';

// The dev server's page (what `npm run dev` shows) must let React's refresh preamble run under its
// CSP; the production page's CSP is checked against the build in scripts/desktop/packaging.test.ts.

const ROOT = resolve(__dirname, '..');
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const directives = (csp: string) => csp.split(';').map((d) => d.trim());

describe('the renderer CSP under the dev server', () => {
  it('admits the refresh preamble by its hash, governs every script, and changes nothing else', async () => {
    const renderer = (config as { renderer: UserConfig }).renderer;
    const server = await createServer({
      ...renderer,
      configFile: false,
      root: resolve(ROOT, 'src-renderer'),
      logLevel: 'silent',
      server: { middlewareMode: true, hmr: { port: 0 } },
    });
    try {
      const source = readFileSync(resolve(ROOT, 'src-renderer', 'index.html'), 'utf8');
      const html = await server.transformIndexHtml('/index.html', source);
      const preamble = /<script type="module">([\s\S]*?injectIntoGlobalHook[\s\S]*?)<\/script>/.exec(html)?.[1];
      expect(preamble).toBeDefined();
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
      const scriptSrc = directives(csp).find((d) => d.startsWith('script-src'))!;
      expect(scriptSrc.split(' ')).toEqual(['script-src', "'self'", sha256(preamble!)]);
      // A meta CSP governs only what follows it: it must come before the first script.
      expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
      const written = /content="([^"]*)"/.exec(source.slice(source.indexOf('Content-Security-Policy')))![1];
      expect(directives(csp).filter((d) => !d.startsWith('script-src'))).toEqual(
        directives(written).filter((d) => !d.startsWith('script-src')),
      );
      expect(html.match(/Content-Security-Policy/g)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('adds hashes to script-src only, and nothing when there is no inline script', () => {
    expect(admitInlineScripts("default-src 'self'; script-src 'self'", ['a'])).toBe(
      `default-src 'self'; script-src 'self' ${sha256('a')}`,
    );
    expect(admitInlineScripts("script-src 'self'", [])).toBe("script-src 'self'");
  });
});
