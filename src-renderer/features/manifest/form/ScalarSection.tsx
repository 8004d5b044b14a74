import { fieldsOf, type FieldSection } from '../manifestFields';
import { Section, SelectField, TextArea, TextField } from './fields';

/** A section made of the single-value fields of manifestFields' table. */
export function ScalarSection({ title, section }: { title: string; section: FieldSection }) {
  return (
    <Section title={title}>
      {fieldsOf(section).map((f) =>
        f.kind === 'select' ? (
          <SelectField
            key={f.key}
            label={f.label}
            path={f.path}
            options={f.options ?? []}
            emptyLabel={f.empty}
            wide={f.wide}
          />
        ) : f.kind === 'textarea' ? (
          <TextArea key={f.key} label={f.label} path={f.path} hint={f.hint} placeholder={f.placeholder} rows={4} />
        ) : (
          <TextField
            key={f.key}
            label={f.label}
            path={f.path}
            kind={f.kind === 'int' || f.kind === 'number' ? f.kind : 'text'}
            hint={f.hint}
            placeholder={f.placeholder}
            wide={f.wide}
          />
        ),
      )}
    </Section>
  );
}
