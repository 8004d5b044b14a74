import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

// The renderer's page carries a strict meta CSP: scripts from our own origin only, nothing inline.
// Under the dev server, React's hot reload needs one inline module script (the refresh preamble
// @vitejs/plugin-react adds), which that CSP blocks. This plugin, active only while serving, admits
// exactly the inline scripts the dev page carries, each by its sha256 hash; the production build
// keeps the CSP as written in index.html. The dev server puts its scripts at the top of <head>, ahead
// of the meta (a meta CSP governs only what follows it), so the meta moves to the top as well.

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
