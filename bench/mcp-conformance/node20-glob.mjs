// Lets @modelcontextprotocol/conformance start on Node 20: its bundle imports fs.globSync (Node 22+)
// for commands this bench never runs. On Node 20 that one import is replaced by a stub that says so.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function load(url, context, next) {
  const out = await next(url, context);
  if (!url.includes('/@modelcontextprotocol/conformance/dist/')) return out;
  const source = String(out.source).replace(/globSync as (\\w+),/, (_m, name) => { globalThis.__conformanceGlob = name; return ''; });
  const name = globalThis.__conformanceGlob;
  const stub = name ? 'const ' + name + ' = () => { throw new Error("globSync needs Node 22"); };\\n' : '';
  const shebang = source.startsWith('#!') ? source.slice(0, source.indexOf('\\n') + 1) : '';
  return { ...out, source: shebang + stub + source.slice(shebang.length) };
}
`),
);
