import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../../launch';
import { startFakeProvider, type FakeProvider } from '../../drivers/fakes';
import { rehearsal, rpc, scene, userMessage, type Scene } from '../tools/formation.fixture';
import { everythingStdio } from './servers.fixture';

// An MCP tool's image (server-everything's get-tiny-image, over stdio) goes on as an image: a
// provider driver shows it to the model as an image block, and a rehearsal script can pass it
// on in its answer (pass_tool_parts), where an A2A caller gets it as a file part.

let s: Scene;
let fake: FakeProvider | undefined;
afterEach(async () => {
  await s?.dispose();
  await fake?.dispose();
  fake = undefined;
});

async function ask(manifest: Record<string, unknown>) {
  const session = await startSession({ manifestPath: s.manifest('user', manifest), env: s.env, port: 0 });
  s.sessions.push(session);
  return (
    await rpc(session.url, 'SendMessage', {
      message: userMessage('show me'),
      configuration: { returnImmediately: false },
    })
  ).task;
}

describe("an MCP tool's image", () => {
  it('a rehearsal answer passes it on as an image part', async () => {
    s = scene();
    const task = await ask({
      inference: rehearsal([
        {
          turns: [
            { tool_calls: [{ name: 'everything__get-tiny-image', arguments: {} }] },
            { text: 'Here it is: {{tool_results}}', pass_tool_parts: true },
          ],
        },
      ]),
      capabilities: { mcp: { servers: [everythingStdio()] } },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const parts = task.artifacts[0].parts;
    expect(parts[0].text).toMatch(/^Here it is: - everything__get-tiny-image: .*\[image image\/png, \d+ bytes\]/s);
    expect(parts.find((p: { mediaType?: string }) => p.mediaType === 'image/png')).toMatchObject({
      raw: expect.stringMatching(/^iVBORw0KGgo/),
    });
  });

  it('the Anthropic driver shows it to the model as an image block of the tool result', async () => {
    s = scene();
    s.env.ANTHROPIC_KEY = 'sk-ant-test-mcp-parts';
    fake = await startFakeProvider('anthropic', { key: s.env.ANTHROPIC_KEY });
    fake.reply(
      { turn: { toolCalls: [{ id: 'toolu_1', name: 'everything__get-tiny-image', arguments: {} }] } },
      { turn: { text: 'A tiny image.' } },
    );
    const task = await ask({
      artifacts: [
        {
          name: 'murmur/driver-anthropic',
          runtime: 'driver',
          gateway: { endpoint: fake.url, api_key: '${ANTHROPIC_KEY}' },
        },
      ],
      inference: { transport: 'http', model: 'claude-sonnet-4-6', driver: { artifact: 'murmur/driver-anthropic' } },
      capabilities: { mcp: { servers: [everythingStdio()] } },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const offered = fake.requests[0].body.tools.map((t: { name: string }) => t.name);
    expect(offered).toContain('everything__get-tiny-image');
    const result = fake.requests[1].body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    expect(result.content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
    });
  });
});
