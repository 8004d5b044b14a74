import { join } from 'node:path';
import { startSession } from '../launch';
import type { Session } from '../runtime';
import { staticFormation, type FormationTarget } from '../runtime/tools';
import { rehearsal, rpc, scene, traceOf, userMessage, type Scene } from '../runtime/tools/formation.fixture';
import { startFakeProvider, type FakeProvider } from '../drivers/fakes';

// Test support: a formation recorded on real model wires. The orchestrator talks to a fake
// Anthropic endpoint (key from ${ANTHROPIC_KEY}), delegates in one turn to worker-a (already
// running, on a fake OpenAI endpoint, addressed by URL) and worker-b (a sub-capsule on the
// rehearsal driver, addressed by name), then answers, echoing the key as a hostile model might.

export const KEY = 'sk-ant-recorded-7c1e5d0a9b8f';

export interface RecordedFormation {
  s: Scene;
  orch: Session;
  a: Session;
  anthropic: FakeProvider;
  chat: FakeProvider;
  recordsRoot: string;
  paths: { orch: string; a: string; b: string };
  /** The orchestrator task's answer. */
  answer: string;
  dispose(): Promise<void>;
}

export async function recordFormation(
  task = 'Summarise the report and list the open questions.',
): Promise<RecordedFormation> {
  const s = scene();
  s.env.ANTHROPIC_KEY = KEY;
  s.env.OPENAI_KEY = 'sk-openai-recorded-44d2a1';
  const anthropic = await startFakeProvider('anthropic', { key: KEY });
  const chat = await startFakeProvider('chat', { key: s.env.OPENAI_KEY });
  const aPath = s.manifest('worker-a', {
    artifacts: [
      { name: 'murmur/driver-openai', runtime: 'driver', gateway: { endpoint: chat.url, api_key: '${OPENAI_KEY}' } },
    ],
    inference: { transport: 'http', model: 'gpt-4.1', driver: { artifact: 'murmur/driver-openai' } },
    exports: { peer_tasks: { accept: true } },
  });
  const a = await startSession({ manifestPath: aPath, env: s.env, port: 0 });
  s.sessions.push(a);
  const bPath = s.manifest('worker-b', {
    inference: rehearsal([
      { turns: [{ delay_ms: 5, text: 'worker-b: two open questions', tokens_in: 30, tokens_out: 6 }] },
    ]),
    exports: { peer_tasks: { accept: true } },
  });
  const orchPath = s.manifest('orchestrator', {
    artifacts: [
      {
        name: 'murmur/driver-anthropic',
        runtime: 'driver',
        gateway: { endpoint: anthropic.url, api_key: '${ANTHROPIC_KEY}' },
      },
    ],
    inference: {
      transport: 'http',
      model: 'claude-sonnet-4-6',
      driver: { artifact: 'murmur/driver-anthropic' },
      max_tokens: 512,
    },
    capabilities: { network: { allow: [`localhost:${a.port}`, `127.0.0.1:${a.port}`] } },
  });
  anthropic.reply(
    {
      turn: {
        text: 'Asking both workers.',
        toolCalls: [
          { id: 'toolu_1', name: 'delegate_task', arguments: { to: a.url, text: 'Summarise the report.' } },
          { id: 'toolu_2', name: 'delegate_task', arguments: { to: 'worker-b', text: 'List the open questions.' } },
        ],
        tokensIn: 120,
        tokensOut: 34,
      },
    },
    { turn: { text: `Summary and questions are in. (${KEY})`, tokensIn: 310, tokensOut: 17 } },
  );
  chat.reply({ turn: { text: 'worker-a: the report says revenue grew 12%', tokensIn: 44, tokensOut: 11 } });
  const targets: Record<string, FormationTarget> = { 'worker-b': { kind: 'manifest', manifestPath: bPath } };
  const orch = await startSession({ manifestPath: orchPath, env: s.env, port: 0, formation: staticFormation(targets) });
  s.sessions.push(orch);
  const sent = await rpc(orch.url, 'SendMessage', {
    message: userMessage(task),
    configuration: { returnImmediately: false },
  });
  const answer = String(sent.task?.artifacts?.[0]?.parts?.[0]?.text ?? '');
  traceOf(orch);
  traceOf(a);
  return {
    s,
    orch,
    a,
    anthropic,
    chat,
    recordsRoot: join(s.env.CAPSULE_HOME!, 'records'),
    paths: { orch: orchPath, a: aPath, b: bPath },
    answer,
    async dispose() {
      await s.dispose();
      await anthropic.dispose();
      await chat.dispose();
    },
  };
}
