import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSession } from '../launch';
import type { Session } from '../runtime';
import { staticFormation } from '../runtime/tools';
import { readTraceFile, rpc, traceOf, userMessage, waitFor } from '../runtime/tools/formation.fixture';
import { makeRehearsal, saveRehearsal } from './index';
import { KEY, recordFormation, type RecordedFormation } from './recorded.fixture';

// Record on real model wires -> rehearse -> re-run offline: the replay has the same turns, tool
// calls, delegations, answers and token counts, in every capsule, and no key anywhere.

let rec: RecordedFormation | undefined;
const extra: Session[] = [];
afterEach(async () => {
  await Promise.all(extra.splice(0).map((x) => x.end('test over').catch(() => undefined)));
  await rec?.dispose();
  rec = undefined;
});

type Line = Record<string, any>;
const turnsOf = (lines: Line[]) =>
  lines
    .filter((l) => l.event_type === 'inference')
    .map((l) => ({
      turn: l.turn,
      text: l.text,
      calls: (l.tool_calls ?? []).map((c: Line) => [c.name, c.arguments]),
      tokens: [l.tokens_in, l.tokens_out],
      stop: l.stop_reason,
    }));
const answersOf = (lines: Line[]) => lines.filter((l) => l.event_type === 'task_end').map((l) => l.answer);
const resultsOf = (lines: Line[]) =>
  lines.filter((l) => l.event_type === 'tool_result').map((l) => [l.name, l.ok, l.result]);
const childTraces = (workdir: string) =>
  readdirSync(join(workdir, 'children')).map((d) => readTraceFile(join(workdir, 'children', d, 'trace.jsonl')));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)],
  );
}

/** Starts the rehearsal's entry capsule; the others are sub-capsules it starts by name. */
async function replay(manifests: Record<string, string>, env: Record<string, string | undefined>): Promise<Session> {
  const others = Object.fromEntries(
    Object.entries(manifests)
      .filter(([n]) => n !== 'orchestrator')
      .map(([n, p]) => [n, { kind: 'manifest' as const, manifestPath: p }]),
  );
  const replayEnv = { ...env, ANTHROPIC_KEY: undefined, OPENAI_KEY: undefined };
  const s = await startSession({
    manifestPath: manifests.orchestrator,
    env: replayEnv,
    port: 0,
    formation: staticFormation(others),
  });
  extra.push(s);
  return s;
}

describe('capsule rehearse', () => {
  it('turns a formation recorded on real model wires into a replay with the same turns, calls and answers', async () => {
    rec = await recordFormation();
    // The model echoed the key; the trace (the rehearsal's only source) has it masked.
    expect(answersOf(traceOf(rec.orch))).toEqual(['Summary and questions are in. (***)']);
    const r = await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 });
    expect(r.run.capsules.map((c) => c.capsule)).toEqual(['orchestrator', 'worker-a', 'worker-b']);
    expect(r.notes).toEqual([]);
    const out = join(rec.s.dir, 'rehearsal');
    const manifests = saveRehearsal(out, r);

    // Every manifest is on the rehearsal driver; the driver artifacts (endpoint, key) are gone.
    for (const path of Object.values(manifests)) {
      const m = parse(readFileSync(path, 'utf8'));
      expect(m.inference.driver.artifact).toBe('capsule/driver-rehearsal');
      expect(m.artifacts ?? []).toEqual([]);
    }
    // The recorded model's name and the limits that still shape a replay stay.
    expect(parse(readFileSync(manifests.orchestrator, 'utf8')).inference).toMatchObject({
      model: 'claude-sonnet-4-6',
      max_tokens: 512,
      transport: 'embedded',
    });
    // No secret in any file written: not the key the model echoed, not the ${VAR} reference.
    for (const f of filesUnder(out)) {
      const text = readFileSync(f, 'utf8');
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(rec.s.env.OPENAI_KEY!);
      expect(text).not.toContain('api_key');
    }

    const recorded = traceOf(rec.orch);
    const recordedA = traceOf(rec.a);
    const recordedB = childTraces(rec.orch.workdir)[0];
    const s = await replay(manifests, rec.s.env);
    const sent = await rpc(s.url, 'SendMessage', {
      message: userMessage('Summarise the report and list the open questions.'),
      configuration: { returnImmediately: false },
    });
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const replayed = traceOf(s);

    // The orchestrator: same turns, texts, token counts, stop reasons; the URL-addressed delegation
    // now goes to worker-a by name (its door has another port in the replay).
    const expected = turnsOf(recorded);
    expected[0].calls[0][1] = { ...expected[0].calls[0][1], to: 'worker-a' };
    expect(turnsOf(replayed)).toEqual(expected);
    expect(answersOf(replayed)).toEqual(answersOf(recorded));
    expect(resultsOf(replayed)).toEqual(resultsOf(recorded));
    expect(replayed.filter((l) => l.event_type === 'rehearsal_diverged')).toEqual([]);
    // Delegations went to the same capsules, each as a sub-capsule now, with the recorded answers.
    expect(
      replayed
        .filter((l) => l.event_type === 'delegation_start')
        .map((l) => l.capsule)
        .sort(),
    ).toEqual(['worker-a', 'worker-b']);
    const children = childTraces(s.workdir);
    const byName = (name: string) => children.find((c) => c[0].capsule === name)!;
    expect(turnsOf(byName('worker-a'))).toEqual(turnsOf(recordedA));
    expect(turnsOf(byName('worker-b'))).toEqual(turnsOf(recordedB));
    expect(rec.anthropic.requests).toHaveLength(2); // the replay reached no provider
    expect(rec.chat.requests).toHaveLength(1);
  });

  it('says which turn diverged when the new run does not repeat the recorded input', async () => {
    rec = await recordFormation();
    const out = join(rec.s.dir, 'rehearsal');
    const manifests = saveRehearsal(
      out,
      await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 }),
    );
    // Each reply is chosen by the exact recorded task text.
    const a = parse(readFileSync(manifests['worker-a'], 'utf8'));
    expect(a.inference.rehearsal.replies[0].when).toBe('/^Summarise the report\\.$/');
    const s = await replay(manifests, rec.s.env);

    await rpc(s.url, 'SendMessage', {
      message: userMessage('Something never recorded'),
      configuration: { returnImmediately: false },
    });
    const lines = traceOf(s);
    const diverged = lines.filter((l) => l.event_type === 'rehearsal_diverged');
    expect(diverged).toEqual([
      expect.objectContaining({
        turn: 1,
        reason: expect.stringContaining('the recording has no task with this text ("Something never recorded")'),
      }),
    ]);
    expect(answersOf(lines)).toEqual(['Acknowledged: “Something never recorded”']);
  });

  it('notes a turn whose tool results differ from the recording, and still replays it', async () => {
    rec = await recordFormation();
    const r = await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 });
    // worker-b's recording is lost: it acknowledges instead, so turn 2 follows different results.
    r.manifests.delete('worker-b');
    const out = join(rec.s.dir, 'rehearsal');
    // worker-b now runs worker-a's script, which has no reply for worker-b's text.
    const manifests = { ...saveRehearsal(out, r) };
    manifests['worker-b'] = manifests['worker-a'];
    const s = await replay(manifests, rec.s.env);
    const sent = await rpc(s.url, 'SendMessage', {
      message: userMessage('Summarise the report and list the open questions.'),
      configuration: { returnImmediately: false },
    });
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const diverged = await waitFor('divergence', () => traceOf(s).filter((l) => l.event_type === 'rehearsal_diverged'));
    expect(diverged).toEqual([
      expect.objectContaining({
        turn: 2,
        reason: expect.stringMatching(
          /^tool result 2 differs from the recording: got "Acknowledged: “List the open questions\.”", recorded "worker-b: two open questions"/,
        ),
      }),
    ]);
    expect(answersOf(traceOf(s))).toEqual(answersOf(traceOf(rec.orch)));
  });

  it('takes from a running peer only the tasks this run caused, and names records it cannot find', async () => {
    rec = await recordFormation();
    // worker-a also served another caller, who sent it no traceparent.
    await rpc(rec.a.url, 'SendMessage', {
      message: userMessage('an unrelated caller'),
      configuration: { returnImmediately: false },
    });
    const r = await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 });
    const a = r.run.capsules.find((c) => c.capsule === 'worker-a')!;
    expect(a.tasks.map((t) => t.text)).toEqual(['Summarise the report.']);
    expect(r.scripts.get('worker-a')!.replies.map((x) => x.when)).toEqual(['/^Summarise the report\\.$/']);
    // Without worker-a's records the run is still rehearsed, and the note says what is missing.
    const elsewhere = await makeRehearsal(rec.orch.trace.path, { recordsRoot: join(rec.s.dir, 'nowhere'), speed: 0 });
    expect(elsewhere.run.capsules.map((c) => c.capsule)).toEqual(['orchestrator', 'worker-b']);
    expect(elsewhere.notes).toEqual([
      expect.stringMatching(
        /^127\.0\.0\.1:\d+: its records \(session unknown\) are not on this machine; in the replay it answers with acknowledgements$/,
      ),
    ]);
  });

  it('scales recorded timings by --speed', async () => {
    rec = await recordFormation();
    const recorded = traceOf(rec.orch).filter((l) => l.event_type === 'inference');
    const half = (await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 2 })).scripts.get(
      'orchestrator',
    )!;
    const none = (await makeRehearsal(rec.orch.trace.path, { recordsRoot: rec.recordsRoot, speed: 0 })).scripts.get(
      'orchestrator',
    )!;
    expect(half.replies[0].turns.map((t) => t.delay_ms ?? 0)).toEqual(
      recorded.map((l) => Math.round(l.duration_ms / 2) || 0),
    );
    expect(none.replies[0].turns.every((t) => t.delay_ms === undefined)).toBe(true);
    expect(half.recorded_from).toBe(rec.orch.id);
  });
});
