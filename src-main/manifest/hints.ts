// The hints live in src-shared so the editor's as-you-type check words them as the loader does.
export { closest, editDistance, keyHint, keysAt } from '../../src-shared/manifest';
