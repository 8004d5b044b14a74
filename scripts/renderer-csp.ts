import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

// The renderer's page carries a strict meta CSP: scripts from our own origin only, nothing inline.
// The dev server adds its own scripts at the top of <head>, ahead of the meta, where a meta CSP
// does not reach (it governs only what follows it), and one of them is inline: React's refresh
// preamble (@vitejs/plugin-react), which hot reload needs. This plugin, active only while serving,
// moves the meta to the top so it governs every script of the dev page, and admits exactly the
// inline scripts that page carries, each by its sha256 hash. The production build keeps the CSP
// as written in index.html.

const META = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i;
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `csp` with script-src also admitting these inline scripts (by hash). */
export function admitInlineScripts(csp: string, scripts: string[]): string {
  if (scripts.length === 0) return csp;
  const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
  return csp
    .split(';')
    .map((d) => d.trim())
    .map((d) => (/^script-src\b/.test(d) ? `${d} ${hashes.join(' ')}` : d))
    .join('; ');
}

export function devRendererCsp(): Plugin {
  return {
    name: 'capsule:dev-renderer-csp',
    apply: 'serve',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const meta = META.exec(html);
        if (!meta) throw new Error('index.html has no Content-Security-Policy meta');
        const scripts = [...html.matchAll(INLINE_SCRIPT)].map((m) => m[1]).filter((s) => s.trim());
        const csp = `<meta http-equiv="Content-Security-Policy" content="${admitInlineScripts(meta[1], scripts)}" />`;
        return html.replace(META, '').replace(/<head>/i, `<head>\n    ${csp}`);
      },
    },
  };
}
