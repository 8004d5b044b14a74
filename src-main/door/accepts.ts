import Ajv, { type ValidateFunction } from 'ajv';
import { internalError, invalidParams, type Message } from '../../src-shared/a2a';

// A capsule's `accepts` input contract (JSON Schema) checked against the first data part of a new
// task's message, before any task exists: -32602 naming the field (BadRequest fieldViolations).
// Used by the door itself (door/methods/send.ts) and by the gateway before forwarding, so a
// caller that reaches the door directly meets the same contract.

const ajv = new Ajv({ allErrors: false, strict: false });
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
export function checkAccepts(schema: Record<string, unknown> | undefined, message: Pick<Message, 'parts' | 'taskId'>): void {
  if (!schema) return;
  // A reply to a task waiting for input continues it; the contract is for what starts a task.
  if (message.taskId) return;
  const index = message.parts.findIndex((p) => (p as { data?: unknown }).data !== undefined);
  if (index < 0) {
    throw invalidParams('params.message.parts', 'this capsule accepts a data part matching its input contract (see the card); none was sent');
  }
  const data = (message.parts[index] as { data?: unknown }).data;
  const validate = validatorOf(schema);
  if (validate(data)) return;
  const err = validate.errors?.[0];
  const base = `params.message.parts[${index}].data`;
  const missing = err?.keyword === 'required' ? (err.params as { missingProperty?: string }).missingProperty : undefined;
  const field = `${base}${pointerToField(err?.instancePath ?? '')}${missing ? `.${missing}` : ''}`;
  throw invalidParams(field, err?.message ?? 'does not match the input contract');
}
