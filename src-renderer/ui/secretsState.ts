import { createUiState } from './uiState';

// Whether the secrets dialog is open, and with which name filled in: the toolbar's button opens it
// empty, the manifest form's "Set secret…" with the name its driver reads. One dialog, drawn by
// the secrets feature (SecretsButton), whoever asked.

export interface SecretsAsk {
  /** The secret name the dialog starts with, if any. */
  initialName?: string;
}

const secrets = createUiState<SecretsAsk | null>(null);

export const openSecrets = (ask: SecretsAsk = {}): void => secrets.set(ask);
export const closeSecrets = (): void => secrets.set(null);
export const useSecretsAsk = (): SecretsAsk | null => secrets.use();
