import { describe, expect, it } from 'vitest';
import { sendMessageParams } from './params';
import { fastSendMessageParams } from './params-fast';

const base = () => ({ message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } });
type Case = Record<string, unknown>;
const withMessage = (patch: Record<string, unknown>): Case => ({ message: { ...base().message, ...patch } });

// Shapes callers send, the common ones and the odd or wrong ones: wherever the hand check answers,
// it must answer exactly what the schema does (same keys, same order, same values).
const cases: [string, unknown][] = [
  ['plain', base()],
  ['context and task', withMessage({ contextId: 'c1', taskId: 't1' })],
  ['media type', withMessage({ parts: [{ text: 'a', mediaType: 'text/plain' }, { text: 'b' }] })],
  ['extensions', withMessage({ extensions: ['x'], referenceTaskIds: ['t0'] })],
  [
    'configuration',
    { ...base(), configuration: { historyLength: 3, returnImmediately: true, acceptedOutputModes: ['text/plain'] } },
  ],
  ['empty configuration', { ...base(), configuration: {} }],
  ['tenant', { tenant: 'acme', ...base() }],
  [
    'key order of the input',
    {
      message: { parts: [{ mediaType: 'text/plain', text: 'x' }], role: 'ROLE_AGENT', messageId: 'm' },
      configuration: { returnImmediately: false, historyLength: 0 },
    },
  ],
  ['snake case', { message: { message_id: 'm1', role: 'ROLE_USER', parts: [{ text: 'x' }] } }],
  ['numeric role', withMessage({ role: 1 })],
  ['unknown role', withMessage({ role: 'ROLE_ROBOT' })],
  ['metadata', withMessage({ metadata: { a: 1 } })],
  ['data part', withMessage({ parts: [{ data: { a: 1 } }] })],
  ['two kinds in a part', withMessage({ parts: [{ text: 'a', url: 'http://x' }] })],
  ['no parts', withMessage({ parts: [] })],
  ['empty message id', withMessage({ messageId: '' })],
  ['null context', withMessage({ contextId: null })],
  ['empty context', withMessage({ contextId: '' })],
  ['context id too long', withMessage({ contextId: 'c'.repeat(257) })],
  ['message id too long', withMessage({ messageId: 'm'.repeat(257) })],
  ['unknown key', withMessage({ surprise: true })],
  [
    '__proto__ key',
    JSON.parse('{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"__proto__":{"a":1}}}'),
  ],
  ['bad history length', { ...base(), configuration: { historyLength: -1 } }],
  ['fractional history length', { ...base(), configuration: { historyLength: 1.5 } }],
  ['push config', { ...base(), configuration: { taskPushNotificationConfig: { url: 'http://x' } } }],
  ['strings expected', withMessage({ extensions: [1] })],
  ['message missing', {}],
  ['not an object', 'hello'],
  ['null params', null],
  ['array params', [base()]],
];

describe('SendMessage params, checked by hand where the shape allows', () => {
  it.each(cases)('%s: the same answer as the schema, or none', (_name, params) => {
    const fast = fastSendMessageParams(params);
    if (fast === undefined) return;
    const parsed = sendMessageParams.safeParse(params);
    expect(parsed.success).toBe(true);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
  });

  it('answers the shapes callers send, and leaves the rest to the schema', () => {
    const answered = cases.filter(([, p]) => fastSendMessageParams(p) !== undefined).map(([n]) => n);
    expect(answered).toEqual([
      'plain',
      'context and task',
      'media type',
      'extensions',
      'configuration',
      'empty configuration',
      'tenant',
      'key order of the input',
    ]);
  });
});
