import Ajv from 'ajv';
import { compileLinear, linearRegExp } from '../manifest';
import type { AskedTask } from '../recording';
import type { Matcher, TestFile } from './test-file';

// Compares what a run did with what a test expects. Every difference is one mismatch with the
// path it is at (`task 1: delegations[0].answer`), the expected and the actual value, so a
// failing test prints as a diff a person can read.

export interface Mismatch {
  path: string;
  expected: string;
  actual: string;
}

const ajv = new Ajv({ allErrors: false, strict: false, code: { regExp: linearRegExp } });

/** A matcher in words: the quoted text (exact), `contains …`, `matches /…/`, `matches schema {…}`. */
export function describeMatcher(m: Matcher): string {
  if (typeof m === 'string') return JSON.stringify(m);
  if ('exact' in m) return JSON.stringify(m.exact);
  if ('contains' in m) return `contains ${JSON.stringify(m.contains)}`;
  if ('regex' in m) return `matches ${m.regex}`;
  return `matches schema ${JSON.stringify(m.schema)}`;
}

/** A test file's regex (`/…/flags`, or bare), matched in linear time: test files come from pull requests. */
function regexOf(source: string) {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(source);
  return m ? compileLinear(m[1]!, m[2]) : compileLinear(source);
}

/** Undefined when the value meets the matcher, else why not (appended to the actual value). */
export function unmet(m: Matcher, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  if (typeof m === 'string') return text === m ? undefined : '';
  if ('exact' in m) return text === m.exact ? undefined : '';
  if ('contains' in m) return text.includes(m.contains) ? undefined : '';
  if ('regex' in m) {
    try {
      return regexOf(m.regex).test(text) ? undefined : '';
    } catch (err) {
      return ` (the expected regex does not compile: ${(err as Error).message})`;
    }
  }
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch {
      return ' (not JSON)';
    }
  }
  try {
    const validate = ajv.compile(m.schema);
    if (validate(data)) return undefined;
    const e = validate.errors?.[0];
    return ` (${e ? `${e.instancePath || '/'} ${e.message}` : 'does not match'})`;
  } catch (err) {
    return ` (the expected schema does not compile: ${(err as Error).message})`;
  }
}

const show = (v: unknown) =>
  v === undefined ? '(nothing)' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);

export function compareTask(
  index: number,
  expected: TestFile['tasks'][number],
  actual: AskedTask | undefined,
): Mismatch[] {
  const at = `task ${index + 1}`;
  const out: Mismatch[] = [];
  const check = (path: string, m: Matcher | undefined, value: unknown) => {
    if (m === undefined) return;
    const why = unmet(m, value);
    if (why !== undefined)
      out.push({ path: `${at}: ${path}`, expected: describeMatcher(m), actual: `${show(value)}${why}` });
  };
  if (!actual) return [{ path: `${at}`, expected: 'a task', actual: '(the task never reached the entry capsule)' }];
  const e = expected.expect;
  if (e.status && e.status !== actual.exitStatus)
    out.push({ path: `${at}: status`, expected: e.status, actual: actual.exitStatus ?? '(unfinished)' });
  check('answer', e.answer, actual.answer);
  if (e.delegations) {
    const n = Math.max(e.delegations.length, actual.delegations.length);
    for (let i = 0; i < n; i++) {
      const want = e.delegations[i];
      const got = actual.delegations[i];
      const p = `delegations[${i}]`;
      if (!want) {
        out.push({
          path: `${at}: ${p}`,
          expected: '(no delegation)',
          actual: `${got.from} asked ${got.to}: ${show(got.text)}`,
        });
        continue;
      }
      if (!got) {
        out.push({ path: `${at}: ${p}`, expected: `${want.from ?? '?'} asks ${want.to}`, actual: '(no delegation)' });
        continue;
      }
      if (want.from !== undefined && want.from !== got.from)
        out.push({ path: `${at}: ${p}.from`, expected: want.from, actual: got.from });
      if (want.to !== got.to) out.push({ path: `${at}: ${p}.to`, expected: want.to, actual: got.to });
      check(`${p}.text`, want.text, got.text);
      check(`${p}.data`, want.data, got.data);
      check(`${p}.answer`, want.answer, got.answer);
    }
  }
  return out;
}

/** The mismatches as a diff: `- expected` / `+ actual` under each path. */
export function formatDiff(mismatches: readonly Mismatch[]): string {
  return mismatches.map((m) => `${m.path}\n  - ${m.expected}\n  + ${m.actual}`).join('\n');
}
