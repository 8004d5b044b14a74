import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src-main/**/*.test.ts',
      'src-shared/**/*.test.ts',
      'src-renderer/**/*.test.{ts,tsx}',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One test file per core. Vitest's own default keeps a core for its main process (cores - 1),
    // which on CI's two-core machine meant one file at a time, though that process mostly waits
    // and so do many files (on the CLI processes and doors they start).
    maxWorkers: availableParallelism(),
  },
});
