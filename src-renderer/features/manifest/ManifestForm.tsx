import { useCallback, useMemo, type KeyboardEvent } from 'react';
import type { IssueView } from '../../../src-shared/contract';
import { useStudio } from '../../store';
import { DriverSection } from './form/DriverSection';
import { FormContext, type FormApi } from './form/FormContext';
import { applyEdits, readData, textAt, type DocEdit } from './form/formDoc';
import { canRedo, canUndo, closeStep, recordEdit, redoEdit, undoEdit } from './form/formHistory';
import { NetworkSection } from './form/NetworkSection';
import { RehearsalSection } from './form/RehearsalSection';
import { ScalarSection } from './form/ScalarSection';
import { SchemaField } from './form/SchemaField';
import { Section } from './form/fields';
import { SkillsSection } from './form/SkillsSection';
import './form/form.css';

interface ManifestFormProps {
  capsuleId: string;
  draft: string;
  issues: IssueView[];
  onChange(text: string): void;
}

const isTextField = (t: EventTarget) =>
  t instanceof HTMLElement &&
  (t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && (t as HTMLInputElement).type !== 'checkbox'));

/**
 * Every field a user sets, as a form over the draft. Each change is written into the YAML through
 * the document (comments and ${VAR} kept) and is one step of the form's undo.
 */
export function ManifestForm({ capsuleId, draft, issues, onChange }: ManifestFormProps) {
  const data = useMemo(() => readData(draft), [draft]);
  const write = useCallback(
    (key: string, ...edits: DocEdit[]) => {
      try {
        const next = applyEdits(draft, ...edits);
        if (next === draft) return;
        recordEdit(capsuleId, key, draft, next);
        onChange(next);
      } catch (err) {
        useStudio.getState().notify('error', `The form could not change the manifest: ${(err as Error).message}`);
      }
    },
    [capsuleId, draft, onChange],
  );
  const api: FormApi | null = useMemo(
    () => (data ? { capsuleId, selfName: textAt(data, ['name']), data, issues, write } : null),
    [capsuleId, data, issues, write],
  );
  if (!api) {
    return (
      <p className="manifest-note">
        The YAML does not parse, so the form is paused. Fix the text in the YAML view; the problem is listed below.
      </p>
    );
  }
  const undo = () => {
    const prev = undoEdit(capsuleId, draft);
    if (prev !== null) onChange(prev);
  };
  const redo = () => {
    const next = redoEdit(capsuleId, draft);
    if (next !== null) onChange(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    // In a text field the browser's own undo works on the text; elsewhere in the form, Ctrl+Z is the form's.
    if (!(e.ctrlKey || e.metaKey) || e.altKey || isTextField(e.target)) return;
    const key = e.key.toLowerCase();
    if (key === 'z' && !e.shiftKey) undo();
    else if ((key === 'z' && e.shiftKey) || key === 'y') redo();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <FormContext.Provider value={api}>
      <div className="manifest-form" onKeyDown={onKeyDown} onBlur={() => closeStep(capsuleId)}>
        <div className="form-toolbar">
          <button
            type="button"
            className="btn btn-small"
            aria-label="Undo form edit"
            disabled={!canUndo(capsuleId, draft)}
            onClick={undo}
          >
            ↶ Undo
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label="Redo form edit"
            disabled={!canRedo(capsuleId, draft)}
            onClick={redo}
          >
            ↷ Redo
          </button>
          <span className="field-hint">Edits go to the draft; Save writes the file.</span>
        </div>
        <ScalarSection title="Capsule" section="capsule" />
        <DriverSection />
        <ScalarSection title="Behaviour" section="behaviour" />
        <ScalarSection title="Limits" section="limits" />
        <RehearsalSection />
        <NetworkSection />
        <ScalarSection title="Lifecycle" section="lifecycle" />
        <SkillsSection />
        <Section title="Contracts">
          <SchemaField
            label="Input schema (accepts)"
            path={['accepts']}
            hint='The data part a task may carry, as JSON Schema, e.g. {"type": "object", "properties": {"priority": {"type": "integer"}}}'
          />
          <SchemaField
            label="Response schema (JSON Schema)"
            path={['responds']}
            hint="The shape of the answer; leave empty for free text"
          />
        </Section>
      </div>
    </FormContext.Provider>
  );
}
