import { isMap, parseDocument } from 'yaml';
import { DRIVER_ARTIFACTS } from '../../../src-shared/manifest';

/** A common manifest field the form edits; the rest stays in the YAML. */
export interface ManifestField {
  key: string;
  label: string;
  path: string[];
  /** `json`: a map edited as JSON text (a JSON Schema such as the output contract). */
  kind: 'text' | 'number' | 'select' | 'checkbox' | 'json';
  options?: string[];
  hint?: string;
}

export const MANIFEST_FIELDS: ManifestField[] = [
  { key: 'name', label: 'Name', path: ['name'], kind: 'text' },
  { key: 'version', label: 'Version', path: ['version'], kind: 'text' },
  { key: 'description', label: 'Description', path: ['description'], kind: 'text' },
  { key: 'driver', label: 'Driver artifact', path: ['inference', 'driver', 'artifact'], kind: 'select', options: Object.keys(DRIVER_ARTIFACTS) },
  { key: 'model', label: 'Model', path: ['inference', 'model'], kind: 'text' },
  { key: 'max_turns', label: 'Max turns', path: ['inference', 'max_turns'], kind: 'number' },
  { key: 'max_tokens', label: 'Max tokens', path: ['inference', 'max_tokens'], kind: 'number' },
  { key: 'queue_depth', label: 'Queue depth', path: ['lifecycle', 'queue_depth'], kind: 'number' },
  { key: 'after_task', label: 'After a task', path: ['lifecycle', 'after_task'], kind: 'select', options: ['sleep', 'exit'] },
  { key: 'internal_port', label: 'Internal port', path: ['network', 'internal_port'], kind: 'number', hint: 'Pinned so allow entries stay valid across restarts' },
  { key: 'peer_accept', label: 'Accept tasks from other capsules', path: ['exports', 'peer_tasks', 'accept'], kind: 'checkbox' },
  { key: 'responds', label: 'Response schema (JSON Schema)', path: ['responds'], kind: 'json', hint: 'The shape of the answer; leave empty for free text' },
];

export type FieldValues = Record<string, string | boolean>;

/** Reads the form's values from a draft; null when the YAML does not parse as a mapping. */
export function readFields(text: string): FieldValues | null {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return null;
  const values: FieldValues = {};
  for (const f of MANIFEST_FIELDS) {
    const v = doc.getIn(f.path);
    if (f.kind === 'checkbox') values[f.key] = v === true;
    else if (f.kind === 'json') values[f.key] = jsonOf(doc.toJS() as unknown, f.path);
    else values[f.key] = v === undefined || v === null ? '' : String(v);
  }
  return values;
}

/** The value at `path` as indented JSON, '' when absent. */
function jsonOf(data: unknown, path: string[]): string {
  let v = data;
  for (const seg of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[seg] : undefined;
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
 * and the rest of the text stay as they were. An empty value removes the key.
 */
export function writeField(text: string, field: ManifestField, value: string | boolean): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return text;
  if (value === '' || (field.kind === 'checkbox' && value === false && !doc.hasIn(field.path))) {
    if (doc.hasIn(field.path)) doc.deleteIn(field.path);
  } else if (field.kind === 'json') {
    const map = typeof value === 'string' ? parseJsonField(value) : undefined;
    if (!map) return text;
    doc.setIn(field.path, doc.createNode(map));
  } else if (field.kind === 'number' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) {
    doc.setIn(field.path, Number(value.trim()));
  } else {
    doc.setIn(field.path, value);
  }
  return doc.toString();
}
