import { readFileSync } from 'node:fs';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, describe, expect, it } from 'vitest';
import { startSession } from '../launch';
import { staticFormation } from '../runtime/tools';
import { rehearsal, rpc, scene, traceOf, userMessage, type Scene } from '../runtime/tools/formation.fixture';
import { GEN_AI, telemetryConfigFromEnv, telemetryFor } from './index';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.fixture';

// A three-capsule run (orchestrator -> worker-a, a running door, and worker-b, a sub-capsule; all
// on the rehearsal driver) exported through the OpenTelemetry SDK to a local OTLP receiver, over
// http/protobuf and http/json: one trace, the right parent/child links, the GenAI attributes, the
// configured headers and service name, and no secret in what was sent.

const SECRET = 'wk-secret-5e2c9a77b1';
const TOKEN = 'otlp-token-31f0c2';

let s: Scene | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await s?.dispose();
  await receiver?.close();
  s = receiver = undefined;
});

const worker = (name: string) =>
  rehearsal([{ turns: [{ text: `${name} done with \${WORKER_SECRET}`, tokens_in: 21, tokens_out: 4 }] }]);

async function run(protocol: 'http/protobuf' | 'http/json') {
  receiver = await startOtlpReceiver();
  s = scene();
  Object.assign(s.env, {
    WORKER_SECRET: SECRET,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_SERVICE_NAME: 'formation-test',
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${TOKEN}`,
    OTEL_BSP_SCHEDULE_DELAY: '20',
  });
  const a = await startSession({
    manifestPath: s.manifest('worker-a', { inference: worker('worker-a'), exports: { peer_tasks: { accept: true } } }),
    env: s.env,
    port: 0,
  });
  s.sessions.push(a);
  const bPath = s.manifest('worker-b', { inference: worker('worker-b'), exports: { peer_tasks: { accept: true } } });
  const orchInference = {
    ...rehearsal([
      {
        turns: [
          {
            tool_calls: [
              { name: 'delegate_task', arguments: { to: 'worker-a', text: 'part one' } },
              { name: 'delegate_task', arguments: { to: 'worker-b', text: 'part two' } },
            ],
            tokens_in: 100,
            tokens_out: 30,
          },
          { text: 'both parts done', tokens_in: 240, tokens_out: 9 },
        ],
      },
    ]),
    model: 'claude-sonnet-4-6',
  };
  const orch = await startSession({
    manifestPath: s.manifest('orchestrator', {
      inference: orchInference,
      capabilities: { network: { allow: [`localhost:${a.port}`] } },
    }),
    env: s.env,
    port: 0,
    formation: staticFormation({
      'worker-a': { kind: 'door', url: a.url, capsule: 'worker-a', sessionId: a.id, workdir: a.workdir },
      'worker-b': { kind: 'manifest', manifestPath: bPath },
    }),
  });
  s.sessions.push(orch);
  const sent = await rpc(orch.url, 'SendMessage', {
    message: userMessage('do both parts'),
    configuration: { returnImmediately: false },
  });
  expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
  const telemetry = telemetryFor(s.env)!;
  // 3 tasks, 4 turns, 2 tool calls, 2 delegations.
  const deadline = Date.now() + 10_000;
  while (receiver.spans.length < 11 && Date.now() < deadline) {
    await telemetry.flush();
    await new Promise((r) => setTimeout(r, 20));
  }
  return { orch, a, taskId: sent.task.id as string, spans: receiver.spans };
}

const named = (spans: ReceivedSpan[], prefix: string) => spans.filter((x) => x.name.startsWith(prefix));

describe.each(['http/protobuf', 'http/json'] as const)('OpenTelemetry export over %s', (protocol) => {
  it('arrives as one trace with the right links and GenAI attributes, and no secret', async () => {
    const { orch, a, taskId, spans } = await run(protocol);
    expect(spans).toHaveLength(11);
    // One formation run is one trace, whose id is the orchestrator task's.
    expect(new Set(spans.map((x) => x.traceId))).toEqual(new Set([taskId.slice(4)]));
    expect(spans.every((x) => x.resource['service.name'] === 'formation-test')).toBe(true);
    const byId = new Map(spans.map((x) => [x.spanId, x]));
    const parentOf = (x: ReceivedSpan) => byId.get(x.parentSpanId);

    const [root] = named(spans, 'invoke_agent orchestrator');
    expect(root.parentSpanId).toBe('');
    expect(root.kind).toBe(2); // SERVER
    expect(root.attributes).toMatchObject({
      [GEN_AI.operationName]: 'invoke_agent',
      [GEN_AI.agentName]: 'orchestrator',
      'a2a.task.id': taskId,
      'capsule.session.id': orch.id,
      'capsule.task.exit_status': 'ok',
      [GEN_AI.usageInputTokens]: 340,
      [GEN_AI.usageOutputTokens]: 39,
    });

    const turns = named(spans, 'chat claude-sonnet-4-6');
    expect(turns.map((t) => parentOf(t)?.spanId)).toEqual([root.spanId, root.spanId]);
    expect(
      turns
        .map((t) => [
          t.attributes['capsule.turn'],
          t.attributes[GEN_AI.usageInputTokens],
          t.attributes[GEN_AI.usageOutputTokens],
          t.attributes[GEN_AI.responseFinishReasons],
        ])
        .sort(),
    ).toEqual([
      [1, 100, 30, ['tool_use']],
      [2, 240, 9, ['end_turn']],
    ]);
    expect(
      turns.every(
        (t) =>
          t.attributes[GEN_AI.operationName] === 'chat' &&
          t.attributes[GEN_AI.requestModel] === 'claude-sonnet-4-6' &&
          t.kind === 3,
      ),
    ).toBe(true);

    const tools = named(spans, 'execute_tool delegate_task');
    expect(tools).toHaveLength(2);
    expect(tools.every((t) => parentOf(t) === root && t.attributes[GEN_AI.toolName] === 'delegate_task')).toBe(true);
    const delegations = named(spans, 'delegate ');
    expect(delegations.map((d) => d.name).sort()).toEqual(['delegate worker-a', 'delegate worker-b']);
    expect(delegations.every((d) => tools.includes(parentOf(d)!))).toBe(true);

    // Each worker's task is the child of the delegation that asked it, across capsules.
    for (const name of ['worker-a', 'worker-b']) {
      const [task] = named(spans, `invoke_agent ${name}`);
      expect(parentOf(task)?.name).toBe(`delegate ${name}`);
      const [turn] = named(spans, 'chat rehearsal').filter((t) => parentOf(t) === task);
      expect(turn.attributes).toMatchObject({
        [GEN_AI.usageInputTokens]: 21,
        [GEN_AI.usageOutputTokens]: 4,
        [GEN_AI.providerName]: 'capsule.rehearsal',
      });
    }
    // Children end inside their parents.
    for (const x of spans) {
      const p = parentOf(x);
      if (p) expect(x.startNs >= p.startNs && x.endNs <= p.endNs).toBe(true);
    }

    // The configured headers went with every request; the content type is the protocol's.
    expect(receiver!.requests.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(
      receiver!.requests.every((r) => r.contentType.includes(protocol === 'http/json' ? 'json' : 'protobuf')),
    ).toBe(true);
    // The worker's interpolated secret reached its answer (masked in its own trace); nothing
    // exported carries it, nor the OTLP token (which stays out of the traces too).
    const sent = Buffer.concat(receiver!.bodies).toString('latin1');
    expect(sent).not.toContain(SECRET);
    expect(readFileSync(orch.trace.path, 'utf8')).not.toContain(TOKEN);
    expect(traceOf(a).find((l) => l.event_type === 'task_end')?.answer).toBe('worker-a done with ***');
  });
});

describe('OpenTelemetry configuration', () => {
  it('is off by default and on when an endpoint or CAPSULE_OTEL=on says so', () => {
    expect(telemetryConfigFromEnv({})).toBeUndefined();
    expect(telemetryConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      serviceName: 'capsule',
      maxQueueSize: 2048,
    });
    expect(telemetryConfigFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' })?.url).toBe(
      'http://c:4318/custom',
    );
    expect(telemetryConfigFromEnv({ CAPSULE_OTEL: 'on' })?.url).toBe('http://localhost:4318/v1/traces');
    expect(
      telemetryConfigFromEnv({ CAPSULE_OTEL: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBeUndefined();
    expect(
      telemetryConfigFromEnv({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBeUndefined();
    expect(
      telemetryConfigFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1, x-key=b%3Dc',
      })?.headers,
    ).toEqual({ a: '1', 'x-key': 'b=c' });
    expect(() =>
      telemetryConfigFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/grpc.*not supported/);
  });

  it('uses the GenAI semantic-convention names of the official package', () => {
    expect(GEN_AI).toEqual({
      operationName: incubating.ATTR_GEN_AI_OPERATION_NAME,
      providerName: incubating.ATTR_GEN_AI_PROVIDER_NAME,
      requestModel: incubating.ATTR_GEN_AI_REQUEST_MODEL,
      requestMaxTokens: incubating.ATTR_GEN_AI_REQUEST_MAX_TOKENS,
      responseModel: incubating.ATTR_GEN_AI_RESPONSE_MODEL,
      responseFinishReasons: incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      usageInputTokens: incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      usageOutputTokens: incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      agentName: incubating.ATTR_GEN_AI_AGENT_NAME,
      agentId: incubating.ATTR_GEN_AI_AGENT_ID,
      agentVersion: incubating.ATTR_GEN_AI_AGENT_VERSION,
      conversationId: incubating.ATTR_GEN_AI_CONVERSATION_ID,
      toolName: incubating.ATTR_GEN_AI_TOOL_NAME,
      toolCallId: incubating.ATTR_GEN_AI_TOOL_CALL_ID,
    });
  });
});
