// Import boundaries (docs/README.md lists the project's notes): the core is a plain Node library, only the Electron shell
// imports 'electron', and shared/renderer code imports no Node built-ins.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { folderOrder } from './scripts/lint/folder-order.mjs';
import { importCycles } from './scripts/lint/import-cycles.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noNode = nodeBuiltins.map((name) => ({
  name,
  message: 'src-shared and src-renderer stay free of Node built-ins.',
}));
const noElectron = { name: 'electron', message: "Only src-main/shell/electron may import 'electron'." };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src-main/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src-main/shell/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  {
    // The order of src-main's folders (scripts/lint/folder-order.mjs), and of the files inside
    // them (no import cycles, scripts/lint/import-cycles.mjs). Tests and test support may reach any
    // folder: an integration test beside the runtime drives it through a real door, as the
    // launcher does.
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/**/*.test.ts', 'src-main/**/testing.ts', 'src-main/**/test-*.ts', 'src-main/**/*.fixture.ts'],
    plugins: { capsule: { rules: { 'folder-order': folderOrder, 'import-cycles': importCycles } } },
    rules: { 'capsule/folder-order': 'error', 'capsule/import-cycles': 'error' },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, ...noNode],
          patterns: [
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-shared depends on nothing of ours.' },
          ],
        },
      ],
    },
  },
  {
    // The renderer's floor plan (scripts/lint/folder-order.mjs): transport → store → ui → features
    // (side by side) → app → main.tsx, and no import cycles inside it. Tests may compose anything.
    files: ['src-renderer/**/*.{ts,tsx}'],
    ignores: ['src-renderer/**/*.test.{ts,tsx}'],
    plugins: { capsule: { rules: { 'folder-order': folderOrder, 'import-cycles': importCycles } } },
    rules: { 'capsule/folder-order': 'error', 'capsule/import-cycles': 'error' },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron, ...noNode],
          patterns: [
            { group: ['**/src-main/**'], message: 'The renderer reaches the core only through the contract.' },
          ],
        },
      ],
    },
  },
);
