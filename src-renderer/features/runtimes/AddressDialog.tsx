import { useState, type FormEvent } from 'react';
import { useStudio } from '../../store';
import { Dialog, FormActions } from '../../ui/Dialog';

// An edge across hosts whose worker address the Studio cannot know (say the worker's runtime is
// reached over loopback from here, but the orchestrator runs elsewhere): the user says where the
// orchestrator's host reaches the worker's door, and the edge is written with that address.

export function AddressDialog() {
  const ask = useStudio((s) => s.addressAsk);
  const [address, setAddress] = useState('');
  if (!ask) return null;
  const close = () => {
    setAddress('');
    useStudio.getState().cancelAddress();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!address.trim()) return;
    void useStudio.getState().connectAcross(ask.source, ask.target, address.trim());
    setAddress('');
  };
  return (
    <Dialog title="Where does the orchestrator reach the worker?" onClose={close}>
      <form onSubmit={submit} className="runtime-attach" noValidate>
        <p className="runtime-attach-hint">{ask.message}</p>
        <div className="field">
          <label className="field-label" htmlFor="worker-address">
            Worker address
          </label>
          <input
            id="worker-address"
            className="input"
            autoFocus
            placeholder={`10.0.0.5:${ask.port ?? 8080}`}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
        </div>
        <FormActions onCancel={close} submit={'Connect'} disabled={!address.trim()} />
      </form>
    </Dialog>
  );
}
