import { describe, expect, it } from 'vitest';
import type { TaskRun } from './executor';
import { createAgentLoop } from './loop';
import { rehearsalManifest } from './testing';
import type { Tool } from './tool-types';

// The agent loop on its own: concurrent tool calls of one turn, and the dollar spend ceiling.

function fakeRun(text: string): TaskRun & { lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return {
    sessionId: 'ses_x',
    taskId: 'tsk_x',
    contextId: 'ctx',
    text,
    message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text }] },
    conversation: [],
    signal: new AbortController().signal,
    aborted: false,
    usage: { turns: 0, tokensIn: 0, tokensOut: 0 },
    trace: (e) => void lines.push(e),
    track: () => () => undefined,
    setWaiting: () => undefined,
    requestInput: async () => 'answer',
    guard: (work) => work(),
    lines,
  };
}

describe('agent loop', () => {
  it('runs the tool calls of one turn concurrently', async () => {
    let arrived = 0;
    let release!: () => void;
    const barrier = new Promise<void>((r) => (release = r));
    const meet: Tool = {
      spec: { name: 'meet', description: '', parameters: {} },
      async run() {
        if (++arrived === 2) release();
        await barrier; // resolves only if both calls are running at once
        return { ok: true, content: 'met' };
      },
    };
    const manifest = rehearsalManifest({
      inference: {
        rehearsal: { replies: [{ turns: [{ tool_calls: [{ name: 'meet' }, { name: 'meet' }] }, { text: 'done' }] }] },
      },
    });
    const loop = createAgentLoop({ manifest, env: {}, secrets: [], tools: [meet] });
    const run = fakeRun('go');
    expect(await loop.run(run)).toEqual({ ok: true, answer: 'done' });
    expect(run.conversation.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['met', 'met']);
  });

  it('fails on the dollar ceiling through the price hook', async () => {
    const manifest = rehearsalManifest({
      inference: {
        budget: { max_usd: 0.5 },
        rehearsal: { replies: [{ turns: [{ tool_calls: [{ name: 'x' }], tokens_in: 1000 }, { text: 'never' }] }] },
      },
    });
    const loop = createAgentLoop({ manifest, env: {}, secrets: [], tools: [], priceUsd: (_m, tin) => tin / 1000 });
    const out = await loop.run(fakeRun('go'));
    expect(out).toMatchObject({ ok: false, cause: 'budget' });
    if (!out.ok) expect(out.message).toContain('max_usd is 0.5');
  });
});
