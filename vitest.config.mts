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
  },
});
