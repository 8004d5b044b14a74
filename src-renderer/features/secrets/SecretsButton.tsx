import { useState } from 'react';
import { SecretsDialog } from './lazySecretsDialog';

/** The toolbar's entry to the secrets dialog. */
export function SecretsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Secrets
      </button>
      {open ? <SecretsDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}
