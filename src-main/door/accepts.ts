import Ajv, { type ValidateFunction } from 'ajv';
import { internalError, invalidParams, type Message } from '../../src-shared/a2a';
import { linearRegExp } from '../manifest';

// A capsule's `accepts` input contract (JSON Schema) checked against the first data part of a new
// task's message, before any task exists: -32602 naming the field (BadRequest fieldViolations).
// Used by the door itself (door/methods/send.ts) and by the gateway before forwarding, so a
// caller that reaches the door directly meets the same contract.

const ajv = new Ajv({ allErrors: false, strict: false, code: { regExp: linearRegExp } });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    try {
      v = ajv.compile(schema);
    } catch (err) {
      // The capsule's fault, not the caller's: say so instead of rejecting good input as invalid.
      throw internalError(`This capsule's accepts contract is not a valid JSON Schema: ${(err as Error).message}`);
    }
    compiled.set(schema, v);
  }
  return v;
}

const pointerToField = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
    .join('');

/** Throws -32602 when a message starting a task does not carry a data part matching the contract. */
export function checkAccepts(
  schema: Record<string, unknown> | undefined,
  message: Pick<Message, 'parts' | 'taskId'>,
): void {
  if (!schema) return;
  // A reply to a task waiting for input continues it; the contract is for what starts a task.
  if (message.taskId) return;
  const index = message.parts.findIndex((p) => (p as { data?: unknown }).data !== undefined);
  if (index < 0) {
    throw invalidParams(
      'params.message.parts',
      'this capsule accepts a data part matching its input contract (see the card); none was sent',
    );
  }
  const data = (message.parts[index] as { data?: unknown }).data;
  const validate = validatorOf(schema);
  if (validate(data)) return;
  const err = validate.errors?.[0];
  const base = `params.message.parts[${index}].data`;
  const missing =
    err?.keyword === 'required' ? (err.params as { missingProperty?: string }).missingProperty : undefined;
  const field = `${base}${pointerToField(err?.instancePath ?? '')}${missing ? `.${missing}` : ''}`;
  throw invalidParams(field, err?.message ?? 'does not match the input contract');
}

// Every problem at once, for the Studio's data field as the user types (the door stops at the first).
const ajvAll = new Ajv({ allErrors: true, strict: false, code: { regExp: linearRegExp } });
const compiledAll = new WeakMap<object, ValidateFunction>();
const MAX_PROBLEMS = 50;

/** Every way `data` misses the contract, each with its field inside the data (`items[0].name`; empty for the whole value); at most 50. */
export function acceptsProblems(schema: Record<string, unknown>, data: unknown): { field: string; message: string }[] {
  let validate = compiledAll.get(schema);
  if (!validate) {
    try {
      validate = ajvAll.compile(schema);
    } catch (err) {
      return [
        { field: '', message: `this capsule's accepts contract is not a valid JSON Schema: ${(err as Error).message}` },
      ];
    }
    compiledAll.set(schema, validate);
  }
  if (validate(data)) return [];
  return (validate.errors ?? []).slice(0, MAX_PROBLEMS).map((err) => {
    const missing =
      err.keyword === 'required' ? (err.params as { missingProperty?: string }).missingProperty : undefined;
    const field = `${pointerToField(err.instancePath)}${missing ? `.${missing}` : ''}`.replace(/^\./, '');
    return { field, message: err.message ?? 'does not match the input contract' };
  });
}
