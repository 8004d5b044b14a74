// The secret store (names and values manifests interpolate as ${NAME}); see store.ts.
export { createSecretStore, launchEnv, type SecretCipher, type SecretStore, type SecretStoreOptions } from './store';
export { privateFolder } from './private-folder';
