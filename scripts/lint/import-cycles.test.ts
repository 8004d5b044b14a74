import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import-cycles rule as `npm run lint` runs it (the repository's own eslint config), on probe
// sources linted as if they were real src-main files: the rest of the graph is read from disk.

const eslint = new ESLint({ cwd: process.cwd() });

async function cycles(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result.messages.filter((m) => m.ruleId === 'capsule/import-cycles').map((m) => m.message);
}

describe('import cycles lint rule', () => {
  it('refuses the runtime knot coming back: the tools importing the session core', async () => {
    const source = `${readFileSync('src-main/runtime/tool-types.ts', 'utf8')}\nexport type { SessionCore } from './core';\n`;
    const found = await cycles('src-main/runtime/tool-types.ts', source);
    expect(found).toEqual([
      expect.stringMatching(
        /^Import cycle: runtime\/tool-types\.ts → runtime\/core\.ts → .*runtime\/tool-types\.ts\. Move what these files share/,
      ),
    ]);
  });

  it('catches a type-only import() cycle too, across folders', async () => {
    const found = await cycles('src-main/runtime/pause.ts', "export type S = import('./breakpoints').ResumeAction;\n");
    expect(found).toEqual([expect.stringContaining('runtime/pause.ts → runtime/breakpoints.ts')]);
  });

  it('passes the runtime as it is, and a leaf importing downwards', async () => {
    for (const file of ['core', 'tasks', 'breakpoints', 'executor', 'tool-types', 'pause']) {
      const path = `src-main/runtime/${file}.ts`;
      expect(await cycles(path, readFileSync(path, 'utf8'))).toEqual([]);
    }
    expect(
      await cycles('src-main/runtime/probe.ts', "export * from './core';\nexport * from './breakpoints';\n"),
    ).toEqual([]);
  });

  it('leaves tests and test support free', async () => {
    expect(await cycles('src-main/runtime/pause.test.ts', "export * from './breakpoints';\n")).toEqual([]);
    expect(await cycles('src-main/runtime/testing.ts', "export * from './session';\n")).toEqual([]);
  });
});

describe('import cycles in the renderer', () => {
  it('refuses the store knot coming back: the store type importing a slice that imports it', async () => {
    const source = `${readFileSync('src-renderer/store/types.ts', 'utf8')}\nexport type { ConsoleSlice } from './consoleSlice';\n`;
    const found = await cycles('src-renderer/store/types.ts', source);
    expect(found).toEqual([
      expect.stringMatching(
        /^Import cycle: store\/types\.ts → store\/consoleSlice\.ts → store\/types\.ts\. Move what these files share/,
      ),
    ]);
  });

  it('catches a cycle between a feature file and the UI kit it uses', async () => {
    const found = await cycles(
      'src-renderer/ui/Dialog.tsx',
      `${readFileSync('src-renderer/ui/Dialog.tsx', 'utf8')}\nexport type R = import('./RestartDialog').Probe;\n`,
    );
    expect(found).toEqual([expect.stringContaining('ui/Dialog.tsx → ui/RestartDialog.tsx → ui/Dialog.tsx')]);
  });

  it('passes the store as it is: slices import their shapes (store/state) and the store type, never the reverse', async () => {
    for (const file of [
      'types',
      'consoleSlice',
      'formationSlice',
      'fold',
      'flowSlice',
      'replaySlice',
      'replayFold',
      'delegationsFold',
      'state/console',
      'index',
    ]) {
      const path = `src-renderer/store/${file}.ts`;
      expect(await cycles(path, readFileSync(path, 'utf8'))).toEqual([]);
    }
  });
});
