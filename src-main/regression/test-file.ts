import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { rehearsalSchema } from '../../src-shared/manifest';
import { askedOfRun, type Rehearsal } from '../recording';

// A saved regression test: `tests/<name>.yaml` in a workspace. It holds the rehearsal script each
// capsule replays, the tasks sent to the entry capsule, and what must come out: the answer, and
// who was asked what (with their answers). An expectation is a text (exact), or one of
// {exact}, {contains}, {regex}, {schema} (a JSON Schema the value, parsed as JSON when it is text,
// must satisfy: for a data part, or an answer that is JSON).

export const TESTS_FOLDER = 'tests';

export const matcherSchema = z.union([
  z.string(),
  z.strictObject({ exact: z.string() }),
  z.strictObject({ contains: z.string() }),
  z.strictObject({ regex: z.string() }),
  z.strictObject({ schema: z.record(z.string(), z.unknown()) }),
]);
export type Matcher = z.infer<typeof matcherSchema>;

const delegationExpectation = z.strictObject({
  from: z.string().optional(),
  to: z.string().min(1),
  text: matcherSchema.optional(),
  data: matcherSchema.optional(),
  answer: matcherSchema.optional(),
});

export const testFileSchema = z.strictObject({
  /** The session the test was recorded from (informative). */
  recorded_from: z.string().optional(),
  /** The capsule (formation id or manifest name) that receives the tasks. */
  entry: z.string().min(1),
  /** Capsule name -> the rehearsal script it replays in place of its model. */
  scripts: z.record(z.string(), rehearsalSchema).default({}),
  /** How long one task may take before it counts as failed (ms). */
  timeout_ms: z.number().int().positive().max(3_600_000).default(60_000),
  tasks: z
    .array(
      z.strictObject({
        text: z.string().min(1),
        expect: z
          .strictObject({
            answer: matcherSchema.optional(),
            status: z.enum(['ok', 'failed', 'canceled', 'rejected', 'input_required']).optional(),
            /** Every delegation of the run, depth first in call order; compared as a whole list. */
            delegations: z.array(delegationExpectation).optional(),
          })
          .default({}),
      }),
    )
    .min(1),
});
export type TestFile = z.infer<typeof testFileSchema>;

/** Parses a test file's text; throws an Error naming the first problem. */
export function readTestFile(source: string): TestFile {
  const parsed = testFileSchema.safeParse(parse(source));
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new Error(`${i.path.join('.') || 'test'}: ${i.message}`);
  }
  return parsed.data;
}

/** A test that expects exactly what the recording did. */
export function testFromRehearsal(r: Rehearsal): TestFile {
  return {
    recorded_from: r.run.sessionId,
    entry: r.run.entry,
    scripts: Object.fromEntries(r.scripts),
    timeout_ms: 60_000,
    tasks: askedOfRun(r.run).map((t) => ({
      text: t.text,
      expect: {
        ...(t.answer !== undefined ? { answer: t.answer } : {}),
        ...(t.exitStatus ? { status: t.exitStatus as 'ok' } : {}),
        delegations: t.delegations.map((d) => ({
          from: d.from,
          to: d.to,
          text: d.text,
          ...(d.data ? { data: { schema: schemaOf(d.data) } } : {}),
          answer: d.answer,
        })),
      },
    })),
  };
}

/** A JSON Schema that holds for this recorded data (its keys and their types): a starting point to edit. */
function schemaOf(data: Record<string, unknown>): Record<string, unknown> {
  const typeOf = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;
  return {
    type: 'object',
    required: Object.keys(data),
    properties: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, { type: typeOf(v) }])),
  };
}

export function testFileText(test: TestFile): string {
  return `# A capsule test (capsule test runs it): the scripts each capsule replays, the tasks, and what must come out.\n${stringify(test, { lineWidth: 0 })}`;
}
