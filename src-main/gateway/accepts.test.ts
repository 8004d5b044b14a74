import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTS_EXTENSION_URI } from './cards';
import { startTestGateway, type TestGateway } from './testing';

// The `accepts` input contract: a bad data part is -32602 naming the field, before any task exists.

const contract = {
  type: 'object',
  required: ['topic'],
  properties: { topic: { type: 'string' }, depth: { type: 'integer', minimum: 1 } },
};

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ accepts: contract });
  token = t.gateway.exposures.enable(t.name).token;
});
afterAll(() => t.dispose());

const send = (parts: unknown[], via: 'gateway' | 'door' = 'gateway') => {
  const params = { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts } };
  return via === 'gateway'
    ? t.rpc(token, 'SendMessage', params).then((r) => r.body)
    : t.capsule.rpc('SendMessage', params);
};

describe('accepts', () => {
  it('shows the contract on the card: skill inputModes and the accepts extension', async () => {
    const card = (await (await t.authFetch(token)(t.gateway.urlsOf(t.name).card)).json()) as any;
    expect(card.skills[0].inputModes).toEqual(['application/json']);
    expect(card.skills[0].description).toContain(ACCEPTS_EXTENSION_URI);
    expect(card.capabilities.extensions).toContainEqual(
      expect.objectContaining({ uri: ACCEPTS_EXTENSION_URI, params: { schema: contract } }),
    );
  });

  it('rejects a bad data part with -32602 naming the field, and no task is created', async () => {
    const before = t.capsule.session.listTasks().length;
    const missing = await send([{ data: { depth: 2 } }]);
    expect(missing.error.code).toBe(-32602);
    expect(missing.error.message).toContain('params.message.parts[0].data.topic');
    expect(missing.error.data[0].fieldViolations[0].field).toBe('params.message.parts[0].data.topic');
    const wrongType = await send([{ text: 'see data' }, { data: { topic: 'x', depth: 0 } }]);
    expect(wrongType.error.data[0].fieldViolations[0].field).toBe('params.message.parts[1].data.depth');
    const none = await send([{ text: 'no data' }]);
    expect(none.error.code).toBe(-32602);
    expect(t.capsule.session.listTasks().length).toBe(before);
  });

  it('the door applies the same contract to a caller that reaches it directly', async () => {
    const before = t.capsule.session.listTasks().length;
    const direct = await send([{ data: { depth: 2 } }], 'door');
    expect(direct.error.data[0].fieldViolations[0].field).toBe('params.message.parts[0].data.topic');
    expect(t.capsule.session.listTasks().length).toBe(before);
  });

  it('takes a data part that matches', async () => {
    const ok = await send([{ data: { topic: 'quantum', depth: 2 } }]);
    expect(ok.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });
});
