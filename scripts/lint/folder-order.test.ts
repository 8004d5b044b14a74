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
    const found = await orderProblems('src-main/runtime/probe.ts', "import { buildDoor } from '../door';\nexport const door = buildDoor;\n");
    expect(found).toEqual([expect.stringContaining('src-main/runtime may not import src-main/door')]);
  });

  it('catches re-exports, dynamic imports and import() types too', async () => {
    const source = "export { checkAccepts } from '../../gateway';\nexport const later = () => import('../../cli/main');\nexport type G = import('../../workspace').Workspace;\n";
    const found = await orderProblems('src-main/door/methods/probe.ts', source);
    expect(found).toHaveLength(3);
    expect(found.join('\n')).toMatch(/door may not import src-main\/gateway[\s\S]*door may not import src-main\/cli[\s\S]*door may not import src-main\/workspace/);
  });

  it('refuses folders side by side importing each other, and a folder not in the order', async () => {
    expect(await orderProblems('src-main/trace/probe.ts', "export * from '../peer';\n")).toEqual([expect.stringContaining('side by side')]);
    expect(await orderProblems('src-main/nowhere/probe.ts', "export * from '../runtime';\n")).toEqual([expect.stringContaining('src-main/nowhere is not in the folder order')]);
  });

  it('lets imports go down, within a folder, and to src-shared', async () => {
    const source = "export * from '../runtime';\nexport * from '../manifest';\nexport * from './methods';\nexport * from '../../src-shared/a2a';\n";
    expect(await orderProblems('src-main/door/probe.ts', source)).toEqual([]);
    expect(await orderProblems('src-main/core.ts', "export * from './workspace';\nexport * from './launch';\n")).toEqual([]);
    expect(await orderProblems('src-main/cli/probe.ts', "export * from '../shell/web';\nexport * from '../core';\n")).toEqual([]);
  });

  it('leaves tests and test support free to compose any folders', async () => {
    expect(await orderProblems('src-main/runtime/probe.test.ts', "export * from '../launch';\n")).toEqual([]);
    expect(await orderProblems('src-main/runtime/testing.ts', "export * from '../launch';\n")).toEqual([]);
  });
});
