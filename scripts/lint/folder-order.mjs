// ESLint rule: src-main's folders import only folders below them in this order, never one beside
// or above. The order is the core's architecture: the runtime runs sessions on what is below it,
// the door serves a session, the launcher composes the two, and so on up to the shells and the
// CLI. A cycle between folders (the runtime building the door that imports the runtime) is
// exactly what this forbids. Folders on one line sit side by side and do not import each other.
import { dirname, resolve, sep } from 'node:path';

export const FOLDER_ORDER = [
  ['manifest', 'trace', 'peer', 'secrets'],
  ['drivers', 'telemetry'],
  ['recording'],
  ['runtime'],
  ['door'],
  ['launch'],
  ['gateway'],
  ['tunnel'],
  ['workspace'],
  ['regression', 'runtimes'],
  ['versions'], // history and published versions: runs the tests (regression) before a publish
  ['deploy'], // exports the published version
  ['core'], // src-main/core.ts
  ['shell'],
  ['cli'],
];

const levelOf = new Map(FOLDER_ORDER.flatMap((line, level) => line.map((name) => [name, level])));
const orderText = FOLDER_ORDER.map((line) => line.join(', ')).join(' → ');

const ROOT = `${sep}src-main${sep}`;

/** The src-main folder a path is in ('core' for src-main/core.ts), or undefined outside src-main. */
function folderOf(path) {
  const at = path.lastIndexOf(ROOT);
  if (at < 0) return undefined;
  const first = path.slice(at + ROOT.length).split(sep)[0];
  return first.replace(/(\.test)?\.[cm]?[jt]sx?$/, '');
}

/** @type {import('eslint').Rule.RuleModule} */
export const folderOrder = {
  meta: {
    type: 'problem',
    docs: { description: "src-main's folders import only the folders below them" },
    schema: [],
    messages: {
      upward: "src-main/{{from}} may not import src-main/{{to}}: a folder imports only those below it ({{order}}).",
      beside: 'src-main/{{from}} may not import src-main/{{to}}: they sit side by side in the order ({{order}}), so neither imports the other.',
      unplaced: 'src-main/{{name}} is not in the folder order; place it in FOLDER_ORDER (scripts/lint/folder-order.mjs).',
    },
  },
  create(context) {
    const file = context.filename;
    const from = folderOf(file);
    if (from === undefined) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = folderOf(resolve(dirname(file), spec));
      if (to === undefined || to === from) return;
      for (const name of [from, to]) {
        if (!levelOf.has(name)) return context.report({ node, messageId: 'unplaced', data: { name } });
      }
      const a = levelOf.get(from);
      const b = levelOf.get(to);
      if (b < a) return;
      context.report({ node, messageId: b === a ? 'beside' : 'upward', data: { from, to, order: orderText } });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      // import('../door').Session in a type position
      TSImportType: (node) => {
        const lit = node.argument?.literal ?? node.argument;
        if (lit?.type === 'Literal') check(node, lit.value);
      },
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};
