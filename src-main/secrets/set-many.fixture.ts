import { createSecretStore } from './store';

// A second process writing the secrets file: sets COUNT secrets named PREFIX_0… one by one.
// Run with `node --require tsx/cjs set-many.fixture.ts FILE PREFIX COUNT`.
const [file, prefix, count] = process.argv.slice(2);
const store = createSecretStore({ file: file! });
for (let i = 0; i < Number(count); i++) store.set(`${prefix}_${i}`, `value-${i}`);
