// ESLint rule: the folders of src-main, and of src-renderer, import only folders below them in
// their order, never one beside or above. src-main's order is the core's architecture: the runtime
// runs sessions on what is below it, the door serves a session, the launcher composes the two, and
// so on up to the shells and the CLI. A cycle between folders (the runtime building the door that
// imports the runtime) is exactly what this forbids. src-renderer's order is its floor plan: the
// transport to the core, the store, the UI kit, the features side by side, the shell that composes
// them, and main.tsx. Folders on one line sit side by side and do not import each other. src-shared
// sits below both trees (imports leaving the tree are not this rule's business).
import { dirname, resolve, sep } from 'node:path';

export const FOLDER_ORDER = [
  ['fs'], // files written whole (a temporary file renamed into place), for every folder above
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

/**
 * The renderer's floor plan. Each folder of `features/` is a place of its own on the `features` line:
 * features sit side by side and share through the UI kit (`ui/`) or the store, never each other.
 */
export const RENDERER_ORDER = [
  ['transport'], // the CoreClient: IPC in the desktop app, WebSocket in the browser
  ['store'], // one zustand store of slices and pure folds
  ['ui'], // the UI kit: shared controls, hooks and UI-only state
  ['features'], // features/<name>, each beside every other
  ['app'], // the shell: toolbar, side panel, layout, lazy loading
  ['main'], // src-renderer/main.tsx
];

/** One tree the rule orders: where it is, its order, and the folders whose sub-folders are places of their own. */
const TREES = [
  { root: 'src-main', order: FOLDER_ORDER, split: new Set(), hint: '' },
  {
    root: 'src-renderer',
    order: RENDERER_ORDER,
    split: new Set(['features']),
    hint: ' Share through src-renderer/ui or the store instead.',
  },
].map((tree) => ({
  ...tree,
  marker: `${sep}${tree.root}${sep}`,
  levelOf: new Map(tree.order.flatMap((line, level) => line.map((name) => [name, level]))),
  orderText: tree.order.map((line) => line.join(', ')).join(' → '),
}));

const stripExt = (name) => name.replace(/(\.test)?\.[cm]?[jt]sx?$/, '');

/** The tree a path is in and its place there ('core' for src-main/core.ts, 'features/graph' for a feature), or undefined. */
function placeOf(path) {
  for (const tree of TREES) {
    const at = path.lastIndexOf(tree.marker);
    if (at < 0) continue;
    const parts = path.slice(at + tree.marker.length).split(sep);
    const first = stripExt(parts[0]);
    const place = tree.split.has(first) && parts.length > 1 ? `${first}/${stripExt(parts[1])}` : first;
    return { tree, place, at };
  }
  return undefined;
}

/** The line of the order a place sits on (a feature sits on the `features` line). */
const levelIn = (tree, place) =>
  tree.levelOf.get(place) ?? (place.includes('/') ? tree.levelOf.get(place.split('/')[0]) : undefined);

/** @type {import('eslint').Rule.RuleModule} */
export const folderOrder = {
  meta: {
    type: 'problem',
    docs: { description: "src-main's and src-renderer's folders import only the folders below them" },
    schema: [],
    messages: {
      upward:
        '{{root}}/{{from}} may not import {{root}}/{{to}}: a folder imports only those below it ({{order}}).{{hint}}',
      beside:
        '{{root}}/{{from}} may not import {{root}}/{{to}}: they sit side by side in the order ({{order}}), so neither imports the other.{{hint}}',
      unplaced: '{{root}}/{{name}} is not in the folder order; place it in scripts/lint/folder-order.mjs.',
    },
  },
  create(context) {
    const file = context.filename;
    const here = placeOf(file);
    if (here === undefined) return {};
    const { tree, place: from } = here;
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const there = placeOf(resolve(dirname(file), spec));
      if (there === undefined || there.tree !== tree || there.at !== here.at) return;
      const to = there.place;
      if (to === from) return;
      for (const name of [from, to]) {
        if (levelIn(tree, name) === undefined)
          return context.report({ node, messageId: 'unplaced', data: { root: tree.root, name } });
      }
      const a = levelIn(tree, from);
      const b = levelIn(tree, to);
      if (b < a) return;
      const data = { root: tree.root, from, to, order: tree.orderText, hint: tree.hint };
      context.report({ node, messageId: b === a ? 'beside' : 'upward', data });
    };
    const fromSource = (node) => node.source && check(node.source, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      // import('../door').Session in a type position
      TSImportType: (node) => {
        const lit = node.source ?? node.argument?.literal ?? node.argument;
        if (lit?.type === 'Literal') check(node, lit.value);
      },
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        )
          check(node, node.arguments[0].value);
      },
    };
  },
};
