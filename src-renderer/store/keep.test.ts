import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CoreError,
  MAX_KEPT_TEXT,
  type CommandName,
  type CoreClient,
  type KeptConversations,
} from '../../src-shared/contract';
import { setCoreClient } from './client';
import { startKeeping, toKept } from './keep';
import { useStudio } from './index';

// The console and the selection outlive the page: a workspace's conversations are saved (with how
// each task ended) a moment after they change, and read back, renumbered, when it opens again.

const initial = useStudio.getState();
let calls: { cmd: CommandName; input: unknown }[] = [];
let kept: KeptConversations;
let layout: { panels: Record<string, number>; selected: string | null };
let stop: () => void = () => undefined;

function install(): void {
  const client: CoreClient = {
    async invoke(cmd, input) {
      calls.push({ cmd, input });
      if (cmd === 'conversations.get') return { ...kept, file: '/ws/.studio/conversations.json' } as never;
      if (cmd === 'conversations.save') return { file: '/ws/.studio/conversations.json' } as never;
      if (cmd === 'layout.get') return layout as never;
      if (cmd === 'layout.set') return layout as never;
      if (cmd === 'task.send')
        return { id: 'tsk_new', contextId: 'ctx_new', status: { state: 'TASK_STATE_SUBMITTED' } } as never;
      throw new CoreError('unknown_command', cmd);
    },
    on: () => () => undefined,
    dispose: () => undefined,
  };
  setCoreClient(client);
}

const capsule = (id: string) => ({ id, name: id, state: 'idle', role: 'worker' }) as never;
const open = (dir: string) =>
  useStudio.setState({
    workspace: { dir, name: dir, issues: [] },
    capsules: { writer: capsule('writer'), editor: capsule('editor') },
    capsuleIds: ['writer', 'editor'],
  } as never);
const flush = () => vi.advanceTimersByTimeAsync(1000);

beforeEach(() => {
  vi.useFakeTimers();
  useStudio.setState(initial, true);
  calls = [];
  kept = {
    conversations: [{ id: 7, capsuleId: 'writer', contextId: 'ctx_7' }],
    entries: [
      {
        key: 3,
        capsuleId: 'writer',
        conversation: 7,
        text: 'Summarise the report',
        taskId: 'tsk_1',
        state: 'TASK_STATE_COMPLETED',
        answer: 'The report, summarised.',
      },
    ],
    current: { writer: 7 },
  };
  layout = { panels: {}, selected: 'editor' };
  install();
  stop = startKeeping(useStudio, 100);
});

afterEach(() => {
  stop();
  vi.useRealTimers();
  setCoreClient(null);
});

describe('keeping the console', () => {
  it('restores a workspace’s kept conversation and selection when it opens, and saves what is sent next', async () => {
    open('/ws');
    await flush();
    const s = useStudio.getState();
    expect(s.selectedId).toBe('editor');
    const [conversation] = s.consoleConversations;
    expect(conversation).toMatchObject({ dir: '/ws', capsuleId: 'writer', contextId: 'ctx_7' });
    expect(s.consoleEntries).toEqual([
      expect.objectContaining({
        dir: '/ws',
        conversation: conversation.id,
        text: 'Summarise the report',
        state: 'TASK_STATE_COMPLETED',
        answer: 'The report, summarised.',
      }),
    ]);
    // The kept conversation is the open one: the next message continues its context.
    useStudio.getState().setConsoleTarget('writer');
    await useStudio.getState().sendMessage('And the open questions?');
    expect(calls.find((c) => c.cmd === 'task.send')?.input).toMatchObject({ capsuleId: 'writer', contextId: 'ctx_7' });
    await flush();
    const saves = calls.filter((c) => c.cmd === 'conversations.save');
    expect(saves).toHaveLength(1);
    const saved = saves[0].input as KeptConversations;
    expect(saved.entries.map((e) => [e.text, e.state])).toEqual([
      ['Summarise the report', 'TASK_STATE_COMPLETED'],
      ['And the open questions?', 'TASK_STATE_SUBMITTED'],
    ]);
    expect(Object.values(saved.current)).toEqual([saved.conversations[0].id]);
    // Each write names the workspace it is for, so the core refuses it once another opened.
    expect(saves[0].input).toMatchObject({ workspace: '/ws' });
    // The user picks another capsule: kept for this workspace.
    useStudio.getState().select('writer');
    expect(calls.at(-1)).toEqual({ cmd: 'layout.set', input: { workspace: '/ws', selected: 'writer' } });
  });

  it('never overwrites the file before it was read, and keeps only the open workspace’s messages, cut to size', async () => {
    open('/ws');
    // Before the kept file was read, nothing is saved over it.
    useStudio.setState({ consoleEntries: [] });
    expect(calls.some((c) => c.cmd === 'conversations.save')).toBe(false);
    await flush();
    const long = 'x'.repeat(MAX_KEPT_TEXT + 500);
    useStudio.setState((s) => ({
      consoleEntries: [
        ...s.consoleEntries,
        { key: 90, dir: '/other', capsuleId: 'writer', conversation: 99, text: 'elsewhere' },
        { key: 91, dir: '/ws', capsuleId: 'writer', conversation: s.consoleConversations[0].id, text: long },
      ],
    }));
    const out = toKept(useStudio.getState(), '/ws');
    expect(out.entries.map((e) => e.text.length)).toEqual(['Summarise the report'.length, MAX_KEPT_TEXT + 1]);
    expect(out.entries[1].text.endsWith('…')).toBe(true);
  });
});
