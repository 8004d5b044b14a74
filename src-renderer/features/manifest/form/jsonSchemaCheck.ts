// A first check of a JSON Schema typed into the form, before it reaches the YAML: JSON syntax
// (with the position the parser names), an object at the top, and the keywords whose shape is
// easy to get wrong. The core compiles the schema (ajv) when the manifest loads and stays the
// authority; this only catches the common slips as they are typed. Bounded: 64 levels deep.

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_DEPTH = 64;

export type SchemaCheck = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function walk(s: unknown, at: string, depth: number, out: string[]): void {
  if (out.length >= 5) return;
  if (depth > MAX_DEPTH) return void out.push(`${at}: nested deeper than ${MAX_DEPTH} levels`);
  if (typeof s === 'boolean') return;
  if (!isObj(s)) return void out.push(`${at || 'the schema'}: a schema is an object (or true/false)`);
  const t = s.type;
  const types = Array.isArray(t) ? t : t === undefined ? [] : [t];
  for (const x of types)
    if (typeof x !== 'string' || !TYPES.has(x))
      out.push(`${at ? `${at}.` : ''}type: "${String(x)}" is not a JSON Schema type (${[...TYPES].join(', ')})`);
  if (s.properties !== undefined) {
    if (!isObj(s.properties)) out.push(`${at ? `${at}.` : ''}properties: must be an object of schemas`);
    else
      for (const [k, v] of Object.entries(s.properties))
        walk(v, `${at ? `${at}.` : ''}properties.${k}`, depth + 1, out);
  }
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string')))
    out.push(`${at ? `${at}.` : ''}required: must be a list of property names`);
  if (s.items !== undefined && !Array.isArray(s.items)) walk(s.items, `${at ? `${at}.` : ''}items`, depth + 1, out);
  if (s.enum !== undefined && !Array.isArray(s.enum)) out.push(`${at ? `${at}.` : ''}enum: must be a list`);
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const v = s[k];
    if (v === undefined) continue;
    if (!Array.isArray(v)) out.push(`${at ? `${at}.` : ''}${k}: must be a list of schemas`);
    else v.forEach((x, i) => walk(x, `${at ? `${at}.` : ''}${k}[${i}]`, depth + 1, out));
  }
}

/** The schema typed, or the first problems with it ('' text is no schema: the key goes). */
export function checkSchemaText(text: string): SchemaCheck {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: `Not JSON yet: ${(err as Error).message}` };
  }
  if (!isObj(v))
    return { ok: false, problem: 'A schema here is a JSON object, e.g. {"type": "object", "properties": {…}}.' };
  const out: string[] = [];
  walk(v, '', 0, out);
  return out.length ? { ok: false, problem: out.join('; ') } : { ok: true, value: v };
}
