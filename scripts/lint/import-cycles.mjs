// ESLint rule: no file in src-main or src-renderer imports itself back through others (a cycle
// stays inside one tree: the trees do not import each other). folder-order.mjs orders the folders;
// this one orders the files inside a folder. A ring of files that all import one another
// (even for types only) cannot be read, tested or changed one piece at a time: the shared shapes
// belong in a file below all of them (src-main/runtime/pause.ts is one, made for that reason, and
// src-renderer/store/types.ts another).
//
// The file being linted contributes its imports as written (so an editor sees a cycle as it is
// typed); every other file is read from disk, its imports found by a plain scan that is cached by
// modification time.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOTS = ['src-main', 'src-renderer'].map((name) => `${sep}${name}${sep}`);
/** The tree marker (`/src-main/`) a path is in, or undefined. */
const rootOf = (path) => ROOTS.find((root) => path.includes(root));
const SPEC = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;
/** Test files and test support may compose anything; they are not part of the graph. */
const TEST_SUPPORT = /(\.test|\.fixture)\.tsx?$|[\\/](testing|test-[^\\/]*)\.tsx?$/;

/** The file an import names: `x.ts`, `x.tsx`, `x/index.ts`, or nothing outside our sources. */
function resolveSpec(from, spec) {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const scanned = new Map(); // file -> { mtimeMs, targets }

function importsOnDisk(file) {
  const mtimeMs = statSync(file).mtimeMs;
  const hit = scanned.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.targets;
  const targets = targetsOf(
    file,
    [...readFileSync(file, 'utf8').matchAll(SPEC)].map((m) => m[1]),
  );
  scanned.set(file, { mtimeMs, targets });
  return targets;
}

function targetsOf(file, specs) {
  const out = new Set();
  const root = rootOf(file);
  for (const spec of specs) {
    const target = resolveSpec(file, spec);
    if (target && root && target.includes(root) && !TEST_SUPPORT.test(target)) out.add(target);
  }
  return [...out];
}

/** A path of imports from `start` back to `file`, or undefined when there is none. */
function pathBack(file, start) {
  const seen = new Set([start]);
  const stack = [[start, [start]]];
  while (stack.length > 0) {
    const [at, path] = stack.pop();
    for (const next of at === file ? [] : importsOnDisk(at)) {
      if (next === file) return path;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push([next, [...path, next]]);
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'no src-main or src-renderer file imports itself back through other files' },
    schema: [],
    messages: {
      cycle:
        'Import cycle: {{ring}}. Move what these files share into a file below them all, so the imports run one way.',
    },
  },
  create(context) {
    const file = context.filename;
    const ROOT = rootOf(file);
    if (!ROOT || TEST_SUPPORT.test(file)) return {};
    const found = []; // [node, spec]
    const add = (node, spec) => typeof spec === 'string' && spec.startsWith('.') && found.push([node, spec]);
    const fromSource = (node) => node.source && add(node.source, node.source.value);
    const name = (f) =>
      relative(file.slice(0, file.lastIndexOf(ROOT) + ROOT.length), f)
        .split(sep)
        .join('/');
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && add(node.source, node.source.value),
      TSImportType: (node) => {
        const lit = node.source ?? node.argument?.literal ?? node.argument;
        if (lit?.type === 'Literal') add(node, lit.value);
      },
      'Program:exit'() {
        const reported = new Set();
        for (const [node, spec] of found) {
          const target = resolveSpec(file, spec);
          if (!target || !target.includes(ROOT) || TEST_SUPPORT.test(target) || target === file || reported.has(target))
            continue;
          const back = pathBack(file, target);
          if (!back) continue;
          reported.add(target);
          context.report({ node, messageId: 'cycle', data: { ring: [file, ...back, file].map(name).join(' → ') } });
        }
      },
    };
  },
};
