export { SecretsButton } from './SecretsButton';
export { SecretsDialog } from './lazySecretsDialog';
