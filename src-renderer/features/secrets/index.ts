export { SecretsButton, SecretsDialog } from './SecretsDialog';
