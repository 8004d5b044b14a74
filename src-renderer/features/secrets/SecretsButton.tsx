import { closeSecrets, openSecrets, useSecretsAsk } from '../../ui/secretsState';
import { SecretsDialog } from './lazySecretsDialog';

/** The toolbar's entry to the secrets dialog; it also draws the dialog when another panel asks for it. */
export function SecretsButton() {
  const ask = useSecretsAsk();
  return (
    <>
      <button type="button" className="btn" onClick={() => openSecrets()}>
        Secrets
      </button>
      {ask ? <SecretsDialog initialName={ask.initialName} onClose={closeSecrets} /> : null}
    </>
  );
}
