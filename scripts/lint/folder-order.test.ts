import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The folder-order rule as `npm run lint` runs it (the repository's own eslint config), on
// probe sources placed at chosen paths in src-main: violations are caught, the order passes.

const eslint = new ESLint({ cwd: process.cwd() });

async function orderProblems(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result.messages.filter((m) => m.ruleId === 'capsule/folder-order').map((m) => m.message);
}

describe('folder order lint rule', () => {
  it('refuses an import of a folder above (the runtime building its own door)', async () => {
    const found = await orderProblems(
      'src-main/runtime/probe.ts',
      "import { buildDoor } from '../door';\nexport const door = buildDoor;\n",
    );
    expect(found).toEqual([expect.stringContaining('src-main/runtime may not import src-main/door')]);
  });

  it('catches re-exports, dynamic imports and import() types too', async () => {
    const source =
      "export { checkAccepts } from '../../gateway';\nexport const later = () => import('../../cli/main');\nexport type G = import('../../workspace').Workspace;\n";
    const found = await orderProblems('src-main/door/methods/probe.ts', source);
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(
      /door may not import src-main\/gateway[\s\S]*door may not import src-main\/cli[\s\S]*door may not import src-main\/workspace/,
    );
  });

  it('refuses folders side by side importing each other, and a folder not in the order', async () => {
    expect(await orderProblems('src-main/trace/probe.ts', "export * from '../peer';\n")).toEqual([
      expect.stringContaining('side by side'),
    ]);
    expect(await orderProblems('src-main/nowhere/probe.ts', "export * from '../runtime';\n")).toEqual([
      expect.stringContaining('src-main/nowhere is not in the folder order'),
    ]);
  });

  it('lets imports go down, within a folder, and to src-shared', async () => {
    const source =
      "export * from '../runtime';\nexport * from '../manifest';\nexport * from './methods';\nexport * from '../../src-shared/a2a';\n";
    expect(await orderProblems('src-main/door/probe.ts', source)).toEqual([]);
    expect(
      await orderProblems('src-main/core.ts', "export * from './workspace';\nexport * from './launch';\n"),
    ).toEqual([]);
    expect(
      await orderProblems('src-main/cli/probe.ts', "export * from '../shell/web';\nexport * from '../core';\n"),
    ).toEqual([]);
  });

  it('leaves tests and test support free to compose any folders', async () => {
    expect(await orderProblems('src-main/runtime/probe.test.ts', "export * from '../launch';\n")).toEqual([]);
    expect(await orderProblems('src-main/runtime/testing.ts', "export * from '../launch';\n")).toEqual([]);
  });
});

describe('the renderer floor plan', () => {
  it('refuses a feature importing another feature: features share through the UI kit or the store', async () => {
    const found = await orderProblems(
      'src-renderer/features/graph/Probe.tsx',
      "export { RuntimeGroups } from '../runtimes';\n",
    );
    expect(found).toEqual([
      expect.stringMatching(
        /src-renderer\/features\/graph may not import src-renderer\/features\/runtimes: they sit side by side.*src-renderer\/ui or the store/,
      ),
    ]);
  });

  it('refuses the kit, the store or a feature reaching up to the shell, and the store reaching the kit', async () => {
    expect(await orderProblems('src-renderer/ui/Probe.tsx', "export * from '../app/Toolbar';\n")).toEqual([
      expect.stringContaining('src-renderer/ui may not import src-renderer/app'),
    ]);
    expect(
      await orderProblems(
        'src-renderer/features/console/Probe.tsx',
        "export const p = () => import('../../app/App');\n",
      ),
    ).toEqual([expect.stringContaining('src-renderer/features/console may not import src-renderer/app')]);
    expect(await orderProblems('src-renderer/store/probe.ts', "export * from '../ui/Dialog';\n")).toEqual([
      expect.stringContaining('src-renderer/store may not import src-renderer/ui'),
    ]);
    expect(await orderProblems('src-renderer/ui/Probe.tsx', "export * from '../features/graph';\n")).toEqual([
      expect.stringContaining('src-renderer/ui may not import src-renderer/features/graph'),
    ]);
    expect(
      await orderProblems('src-renderer/transport/probe.ts', "export type S = import('../store').StudioState;\n"),
    ).toEqual([expect.stringContaining('src-renderer/transport may not import src-renderer/store')]);
    expect(await orderProblems('src-renderer/widgets/Probe.tsx', "export * from '../store';\n")).toEqual([
      expect.stringContaining('src-renderer/widgets is not in the folder order'),
    ]);
  });

  it('lets imports go down: the shell to features, features to the kit and the store, all to src-shared', async () => {
    expect(
      await orderProblems('src-renderer/main.tsx', "export * from './app/App';\nexport * from './transport';\n"),
    ).toEqual([]);
    expect(
      await orderProblems(
        'src-renderer/app/Probe.tsx',
        "export * from '../features/graph';\nexport * from '../features/runtimes';\nexport * from '../ui/Dialog';\n",
      ),
    ).toEqual([]);
    expect(
      await orderProblems(
        'src-renderer/features/graph/deep/Probe.tsx',
        "export * from '../GraphCanvas';\nexport * from '../../../ui/Dialog';\nexport * from '../../../store';\nexport * from '../../../../src-shared/contract';\n",
      ),
    ).toEqual([]);
    expect(
      await orderProblems('src-renderer/ui/Probe.tsx', "export * from '../store';\nexport * from './Dialog';\n"),
    ).toEqual([]);
  });

  it('leaves renderer tests free to compose anything', async () => {
    expect(await orderProblems('src-renderer/store/probe.test.ts', "export * from '../features/graph';\n")).toEqual([]);
  });
});
