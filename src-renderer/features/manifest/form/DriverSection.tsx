import { useId, useState } from 'react';
import { openSecrets } from '../../../ui/secretsState';
import { issuesAt, useForm } from './FormContext';
import {
  artifactIndex,
  choosePreset,
  DRIVER_PRESETS,
  presetOf,
  readGateway,
  SECRET_NAME,
  setEndpoint,
  setKeyVar,
} from './driverPresets';
import { Problems, Section, SelectField, TextField } from './fields';
import { textAt } from './formDoc';

/** Driver and model: a preset per built-in driver, the model, and for HTTP drivers the endpoint and the key's secret name. */
export function DriverSection() {
  const { data } = useForm();
  const artifact = textAt(data, ['inference', 'driver', 'artifact']);
  const preset = presetOf(artifact);
  const listId = useId();
  return (
    <Section title="Driver and model">
      <DriverChoice artifact={artifact} />
      <TextField label="Model" path={['inference', 'model']} list={listId} placeholder={preset?.model ?? 'rehearsal'} />
      <datalist id={listId}>
        {(preset?.models ?? []).map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <SelectField
        label="Transport"
        path={['inference', 'transport']}
        options={['http', 'process', 'embedded']}
        emptyLabel="http (default)"
      />
      {preset?.keyVar ? <Gateway artifact={artifact} /> : null}
      {preset?.transport === 'process' ? (
        <TextField
          label="Harness command"
          path={['inference', 'harness', 'command']}
          wide
          hint="The CLI the process transport runs; its arguments, prompt mode and interrupt are in the YAML (inference.harness)"
        />
      ) : null}
    </Section>
  );
}

function DriverChoice({ artifact }: { artifact: string }) {
  const { data, write, issues } = useForm();
  const id = useId();
  const problems = issuesAt(issues, ['inference', 'driver']);
  const known = !!presetOf(artifact);
  return (
    <div className="field field-wide">
      <label className="field-label" htmlFor={id}>
        Driver
      </label>
      <select
        id={id}
        className="select"
        value={artifact}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={problems.length ? `${id}-error` : undefined}
        onChange={(e) => {
          const p = presetOf(e.target.value);
          if (p) write('driver', ...choosePreset(p, data));
        }}
      >
        {!known ? <option value={artifact}>{artifact || '— choose a driver —'}</option> : null}
        {DRIVER_PRESETS.map((p) => (
          <option key={p.artifact} value={p.artifact}>
            {p.label}
          </option>
        ))}
      </select>
      <Problems id={`${id}-error`} problems={problems} />
    </div>
  );
}

/** Endpoint and key of an HTTP driver, on the artifacts[] entry the driver names; the key only as a ${VAR} reference. */
function Gateway({ artifact }: { artifact: string }) {
  const { data, write, issues } = useForm();
  const preset = presetOf(artifact)!;
  const gw = readGateway(data, artifact);
  const index = artifactIndex(data, artifact);
  const endpointId = useId();
  const keyId = useId();
  const endpointProblems = index >= 0 ? issuesAt(issues, ['artifacts', index, 'gateway', 'endpoint']) : [];
  const keyProblems = index >= 0 ? issuesAt(issues, ['artifacts', index, 'gateway', 'api_key']) : [];
  const [typedName, setTypedName] = useState<string | null>(null);
  const shownName = typedName ?? gw.keyVar;
  const badName = shownName !== '' && !SECRET_NAME.test(shownName);
  return (
    <>
      <div className="field field-wide">
        <label className="field-label" htmlFor={endpointId}>
          Endpoint
        </label>
        <input
          id={endpointId}
          className="input mono"
          value={gw.endpoint}
          placeholder={preset.needsEndpoint ? `required, e.g. ${preset.endpoint}` : `${preset.endpoint} (default)`}
          aria-invalid={endpointProblems.length > 0 || undefined}
          aria-describedby={endpointProblems.length ? `${endpointId}-error` : undefined}
          title="A URL, or a ${VAR} reference to one"
          onChange={(e) => write('endpoint', setEndpoint(artifact, e.target.value))}
        />
        <Problems id={`${endpointId}-error`} problems={endpointProblems} />
      </div>
      <div className="field field-wide">
        <label className="field-label" htmlFor={keyId}>
          API key secret
        </label>
        <div className="form-row">
          <span className="var-affix mono" aria-hidden="true">
            {'${'}
          </span>
          <input
            id={keyId}
            className="input mono var-input"
            value={shownName}
            placeholder={preset.keyOptional ? 'none (a local server may need no key)' : preset.keyVar}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={badName || keyProblems.length > 0 || gw.keyLiteral || undefined}
            aria-describedby={badName || keyProblems.length || gw.keyLiteral ? `${keyId}-error` : undefined}
            onChange={(e) => {
              const name = e.target.value;
              if (name !== '' && !SECRET_NAME.test(name.trim())) return setTypedName(name);
              setTypedName(null);
              write('api_key', setKeyVar(artifact, name));
            }}
          />
          <span className="var-affix mono" aria-hidden="true">
            {'}'}
          </span>
          <button
            type="button"
            className="btn"
            disabled={!SECRET_NAME.test(shownName)}
            onClick={() => openSecrets({ initialName: shownName })}
          >
            Set secret…
          </button>
        </div>
        <Problems
          id={`${keyId}-error`}
          problems={keyProblems}
          local={
            badName
              ? 'A secret name is letters, digits and _ (not starting with a digit); the manifest keeps the last valid name.'
              : gw.keyLiteral
                ? 'The key is written into the manifest as text. Name a secret here instead: the manifest then holds only ${NAME}, and the Studio keeps the value.'
                : undefined
          }
        />
        <span className="field-hint">
          The manifest holds only {'${NAME}'}; the value comes from the environment or the Studio’s secrets.
        </span>
      </div>
    </>
  );
}
