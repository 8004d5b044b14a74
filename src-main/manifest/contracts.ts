import Ajv from 'ajv';
import { linearRegExp } from './re2';

// The manifest's contracts (`accepts`, `responds`) are JSON Schemas; one that does not compile is
// reported with the manifest's other problems, at its line, before anything starts.

const ajv = new Ajv({ strict: false, code: { regExp: linearRegExp } });

/** Why a contract is not a usable JSON Schema, or undefined when it is. */
export function contractProblem(schema: unknown): string | undefined {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  try {
    ajv.compile(schema as Record<string, unknown>);
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^schema is invalid: /, '');
  }
}
