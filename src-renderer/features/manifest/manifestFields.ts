import { applyEdits, readData, setAt, textAt, typed, valueAt } from './form/formDoc';

// The manifest's single-value fields as the form shows them, grouped into its sections. Lists and
// structures (allow lists, skills, the rehearsal script, the driver's artifact entry) have their
// own editors in form/. Every write goes through form/formDoc (the YAML document), so comments and
// ${VAR} references stay as written.

export type FieldSection = 'capsule' | 'behaviour' | 'limits' | 'lifecycle';

export interface ManifestField {
  key: string;
  label: string;
  path: string[];
  section: FieldSection;
  /** `json`: a map edited as JSON text (a JSON Schema such as the output contract). */
  kind: 'text' | 'int' | 'number' | 'select' | 'checkbox' | 'json' | 'textarea';
  options?: string[];
  /** What the select's empty choice says (the default the runtime applies). */
  empty?: string;
  hint?: string;
  placeholder?: string;
  wide?: boolean;
}

export const MANIFEST_FIELDS: ManifestField[] = [
  { key: 'name', label: 'Name', path: ['name'], section: 'capsule', kind: 'text' },
  { key: 'version', label: 'Version', path: ['version'], section: 'capsule', kind: 'text', placeholder: '0.1.0' },
  { key: 'description', label: 'Description', path: ['description'], section: 'capsule', kind: 'text', wide: true },
  {
    key: 'role',
    label: 'Role',
    path: ['role'],
    section: 'capsule',
    kind: 'select',
    options: ['orchestrator', 'worker', 'agent'],
    empty: 'none',
  },
  {
    key: 'system_prompt',
    label: 'System prompt',
    path: ['inference', 'system_prompt'],
    section: 'behaviour',
    kind: 'textarea',
    wide: true,
  },
  {
    key: 'temperature',
    label: 'Temperature',
    path: ['inference', 'temperature'],
    section: 'behaviour',
    kind: 'number',
    hint: '0 to 2',
    placeholder: 'model default',
  },
  {
    key: 'input_timeout',
    label: 'Input timeout',
    path: ['inference', 'input_timeout'],
    section: 'behaviour',
    kind: 'text',
    hint: 'How long a request-input wait lasts: 30s, 10m, 1h',
    placeholder: '10m',
  },
  {
    key: 'max_turns',
    label: 'Max turns',
    path: ['inference', 'max_turns'],
    section: 'limits',
    kind: 'int',
    hint: 'Model turns per task',
    placeholder: 'no limit',
  },
  {
    key: 'max_tokens',
    label: 'Max tokens',
    path: ['inference', 'max_tokens'],
    section: 'limits',
    kind: 'int',
    hint: 'Output tokens per reply',
    placeholder: 'driver default',
  },
  {
    key: 'budget_tokens',
    label: 'Budget: tokens per task',
    path: ['inference', 'budget', 'max_tokens'],
    section: 'limits',
    kind: 'int',
    placeholder: 'no ceiling',
  },
  {
    key: 'budget_usd',
    label: 'Budget: US dollars per task',
    path: ['inference', 'budget', 'max_usd'],
    section: 'limits',
    kind: 'number',
    hint: 'Applies where the price table knows the model',
    placeholder: 'no ceiling',
  },
  {
    key: 'task_acceptance',
    label: 'Task acceptance',
    path: ['lifecycle', 'task_acceptance'],
    section: 'lifecycle',
    kind: 'select',
    options: ['queue', 'single', 'none'],
    empty: 'queue (default)',
  },
  {
    key: 'after_task',
    label: 'After a task',
    path: ['lifecycle', 'after_task'],
    section: 'lifecycle',
    kind: 'select',
    options: ['sleep', 'exit'],
    empty: 'sleep (default)',
  },
  {
    key: 'queue_depth',
    label: 'Queue depth',
    path: ['lifecycle', 'queue_depth'],
    section: 'lifecycle',
    kind: 'int',
    placeholder: '8',
  },
  {
    key: 'idle_timeout',
    label: 'Idle timeout',
    path: ['lifecycle', 'idle_timeout'],
    section: 'lifecycle',
    kind: 'text',
    hint: '500ms, 30s, 10m or 1h',
    placeholder: 'never',
  },
];

export const fieldsOf = (section: FieldSection) => MANIFEST_FIELDS.filter((f) => f.section === section);

export type FieldValues = Record<string, string | boolean>;

/** Reads the form's values from a draft; null when the YAML does not parse as a mapping. */
export function readFields(text: string, fields: readonly ManifestField[] = MANIFEST_FIELDS): FieldValues | null {
  const data = readData(text);
  if (!data) return null;
  const values: FieldValues = {};
  for (const f of fields) {
    if (f.kind === 'checkbox') values[f.key] = valueAt(data, f.path) === true;
    else if (f.kind === 'json') values[f.key] = jsonOf(valueAt(data, f.path));
    else values[f.key] = textAt(data, f.path);
  }
  return values;
}

/** A value as indented JSON, '' when absent. */
export function jsonOf(v: unknown): string {
  return v === undefined || v === null ? '' : JSON.stringify(v, null, 2);
}

/** The map a json field's text holds, or undefined while it is not (yet) a JSON object. */
export function parseJsonField(value: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(value) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes one field into the draft through the YAML document, so the user's comments, key order
 * and the rest of the text stay as they were. An empty value removes the key; a draft that does
 * not parse, or a json value that is no JSON object, leaves the text as it is.
 */
export function writeField(text: string, field: ManifestField, value: string | boolean): string {
  if (!readData(text)) return text;
  let v: unknown = value;
  if (field.kind === 'checkbox')
    v = value === true ? true : valueAt(readData(text), field.path) === undefined ? '' : false;
  else if (field.kind === 'json') {
    if (value === '') v = '';
    else {
      v = typeof value === 'string' ? parseJsonField(value) : undefined;
      if (!v) return text;
    }
  } else if (typeof value === 'string')
    v = typed(value, field.kind === 'int' || field.kind === 'number' ? field.kind : 'text');
  try {
    return applyEdits(text, setAt(field.path, v));
  } catch {
    return text;
  }
}
