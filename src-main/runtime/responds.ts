import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { stringify } from 'yaml';
import { linearRegExp } from '../manifest';

// The output contract (manifest `responds`, a JSON Schema): the answer a model gives is parsed,
// checked, and described back to it in words when it does not fit. The answer is model output,
// so hostile input: parsing is bounded and nothing in it is executed.

const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
const compiled = new WeakMap<object, ValidateFunction>();

/** At most this many validation errors are shown to the model (and named in task_failed). */
const MAX_ERRORS = 5;
/** A structured answer longer than this is refused rather than parsed. */
export const MAX_ANSWER_CHARS = 1024 * 1024;

export class RespondsSchemaError extends Error {}

/** The compiled contract; throws RespondsSchemaError when the manifest's schema is not valid. */
export function respondsValidator(schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch (err) {
      throw new RespondsSchemaError(`responds is not a valid JSON Schema: ${(err as Error).message}`);
    }
    compiled.set(schema, v);
  }
  return v;
}

/** `/findings/0` as `findings[0]`; the whole answer is `(answer)`. */
function fieldOf(e: ErrorObject): string {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  if (missing) segments.push(missing);
  const extra =
    e.keyword === 'additionalProperties' ? (e.params as { additionalProperty?: string }).additionalProperty : undefined;
  if (extra) segments.push(extra);
  const path = segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
  return path || '(answer)';
}

export interface ContractCheck {
  ok: boolean;
  /** The first field at fault, e.g. `summary` or `findings[1]`. */
  field?: string;
  /** One line per problem: `summary: must be string`. */
  problems: string[];
}

export function checkAnswer(schema: Record<string, unknown>, data: unknown): ContractCheck {
  const validate = respondsValidator(schema);
  if (validate(data)) return { ok: true, problems: [] };
  const errors = (validate.errors ?? []).slice(0, MAX_ERRORS);
  const problems = errors.map((e) => {
    const field = fieldOf(e);
    const what =
      e.keyword === 'required'
        ? 'is required'
        : e.keyword === 'additionalProperties'
          ? 'is not allowed'
          : (e.message ?? 'is not valid');
    return `${field}: ${what}`;
  });
  return {
    ok: false,
    field: errors[0] ? fieldOf(errors[0]) : '(answer)',
    problems: problems.length ? problems : ['(answer): does not match'],
  };
}

/** The JSON a model wrote as its answer: the text itself, or the one fenced ```json block in it. */
export function parseAnswerJson(text: string): { ok: true; data: unknown } | { ok: false; problem: string } {
  if (text.length > MAX_ANSWER_CHARS)
    return { ok: false, problem: `(answer): longer than ${MAX_ANSWER_CHARS} characters` };
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/.exec(text);
  const source = (fenced ? fenced[1] : text).trim();
  try {
    return { ok: true, data: JSON.parse(source) };
  } catch {
    return { ok: false, problem: '(answer): is not JSON; reply with only a JSON value of the required shape' };
  }
}

/** The text rendering beside the data part, for callers that read text only. */
export function renderAnswer(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data === null || typeof data !== 'object') return JSON.stringify(data);
  return stringify(data, { lineWidth: 0 }).trimEnd();
}

/** What the model is told when its answer does not fit the contract. */
export function correction(problems: string[]): string {
  return (
    'Your answer does not match the required response schema:\n' +
    problems.map((p) => `- ${p}`).join('\n') +
    '\nAnswer again with only the corrected JSON value.'
  );
}

/**
 * The contract as a tool's parameters, for drivers without a structured-output mode: tools take
 * an object, so any other schema is wrapped as `{answer: …}` (and unwrapped by `fromTool`).
 */
export function respondTool(schema: Record<string, unknown>) {
  const wrapped = schema.type !== 'object';
  return {
    spec: {
      name: RESPOND_TOOL,
      description:
        'Give your final answer. Call this exactly once, when you are done, with the answer as its arguments.',
      parameters: wrapped ? { type: 'object', properties: { answer: schema }, required: ['answer'] } : schema,
    },
    fromTool: (args: Record<string, unknown>): unknown => (wrapped ? args.answer : args),
  };
}

export const RESPOND_TOOL = 'respond';
