import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { capsulePhase, conversationKey, conversationsOf, entriesOfConversation, useStudio } from '../../store';
import { ResizeHandle } from '../../ui/ResizeHandle';
import { ShortId } from '../../ui/ShortId';
import { usePanelFull } from '../../ui/usePanelFull';
import { useWindowSize } from '../../ui/usePanelSize';
import { clampConsole, CONSOLE_DEFAULT, CONSOLE_MIN, consoleMax, useConsoleHeight } from './useConsoleHeight';
import { ConsoleComposer } from './ConsoleComposer';
import { draftKey } from './drafts';
import './console.css';
import { LAUNCH_ALL } from '../../ui/actionWords';

// A conversation's entries (messages, tasks, questions) load with the first one shown: a
// formation that has not talked yet shows only the empty line.
const ConsoleLog = lazy(() => import('./ConsoleLog').then((m) => ({ default: m.ConsoleLog })));

/**
 * A conversation with a running capsule: each message after the first continues the same A2A
 * context (its contextId shown), the history of the conversation stays in view, and New
 * conversation starts another context. Each capsule keeps its own conversations.
 */
export function ConsolePanel() {
  const target = useStudio((s) => s.consoleTarget);
  const selectedId = useStudio((s) => s.selectedId);
  const capsuleIds = useStudio((s) => s.capsuleIds);
  const capsules = useStudio((s) => s.capsules);
  const breakpointMarks = useStudio((s) => s.breakpointMarks);
  const allEntries = useStudio((s) => s.consoleEntries);
  const allConversations = useStudio((s) => s.consoleConversations);
  const dir = useStudio((s) => s.workspace?.dir);
  const currentId = useStudio((s) =>
    target ? s.consoleCurrent[conversationKey(s.workspace?.dir ?? '', target)] : undefined,
  );
  const conversations = useMemo(() => conversationsOf(allConversations, dir, target), [allConversations, dir, target]);
  const current = conversations.find((c) => c.id === currentId);
  const entries = useMemo(() => entriesOfConversation(allEntries, current?.id), [allEntries, current?.id]);
  const [height, setHeight] = useConsoleHeight();
  const winHeight = useWindowSize().height;
  const shown = clampConsole(height, winHeight);
  const [full, setFull] = useState(false);
  usePanelFull(full, setFull);

  // Default target: the selected capsule, else the first orchestrator.
  useEffect(() => {
    const s = useStudio.getState();
    if (target && s.capsules[target]) return;
    const pick =
      (selectedId && s.capsules[selectedId] ? selectedId : null) ??
      s.capsuleIds.find((id) => s.capsules[id].role === 'orchestrator') ??
      s.capsuleIds[0] ??
      null;
    if (pick !== target) s.setConsoleTarget(pick);
  }, [target, selectedId, capsuleIds]);

  const capsule = target ? capsules[target] : undefined;
  const anyRunning = capsuleIds.some((id) => isRunning(capsules[id]?.state));
  const running = !!capsule && isRunning(capsule.state);
  const placeholder = running
    ? current
      ? `Follow up with ${capsule?.name}…`
      : `Message ${capsule?.name}…`
    : capsule
      ? `Launch ${capsule.name} from its node (or ${LAUNCH_ALL}) to send it a message`
      : 'Add a capsule first';

  return (
    <section
      className="console"
      aria-label="Console"
      data-full={full || undefined}
      style={full ? undefined : { height: shown }}
    >
      {full ? null : (
        <ResizeHandle
          className="console-resize"
          orientation="horizontal"
          label="Resize the console"
          size={shown}
          min={CONSOLE_MIN}
          max={consoleMax(winHeight)}
          initial={CONSOLE_DEFAULT}
          onSize={setHeight}
        />
      )}
      <div className="console-bar">
        <h2 className="console-title">Console</h2>
        <label className="visually-hidden" htmlFor="console-target">
          Capsule
        </label>
        <select
          id="console-target"
          className="select"
          value={target ?? ''}
          onChange={(e) => useStudio.getState().setConsoleTarget(e.target.value || null)}
        >
          {capsuleIds.length === 0 ? <option value="">No capsules</option> : null}
          {capsuleIds.map((id) => (
            <option key={id} value={id}>
              {capsules[id].name} ({capsulePhase({ capsules, breakpointMarks }, id)})
            </option>
          ))}
        </select>
        {conversations.length ? (
          <>
            <label className="visually-hidden" htmlFor="console-conversation">
              Conversation
            </label>
            <select
              id="console-conversation"
              className="select console-conversation"
              value={current?.id ?? ''}
              onChange={(e) =>
                e.target.value
                  ? useStudio.getState().openConversation(target!, Number(e.target.value))
                  : useStudio.getState().newConversation(target!)
              }
            >
              {!current ? <option value="">New conversation</option> : null}
              {[...conversations].reverse().map((c) => (
                <option key={c.id} value={c.id}>
                  {titleOf(allEntries, c.id)}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <span
          className="console-context mono muted"
          data-testid="console-context"
          data-context-id={current?.contextId ?? ''}
          title={current?.contextId ? undefined : 'The next message starts a new context'}
        >
          {current?.contextId ? (
            <>
              context <ShortId id={current.contextId} what="A2A contextId" />
            </>
          ) : current ? (
            'context…'
          ) : (
            'new context'
          )}
        </span>
        <button
          type="button"
          className="btn btn-small"
          disabled={!target || !current}
          onClick={() => target && useStudio.getState().newConversation(target)}
        >
          New conversation
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-pressed={full}
          aria-label={full ? 'Restore the console' : 'Maximise the console'}
          title={full ? 'Back to its size (Esc)' : 'Maximise'}
          onClick={() => setFull(!full)}
        >
          {full ? '⤓' : '⤒'}
        </button>
      </div>
      {entries.length === 0 ? (
        <ol className="console-log" aria-label="Conversation">
          <li className="console-empty muted">{emptyLine(capsule, running, anyRunning)}</li>
        </ol>
      ) : (
        <Suspense fallback={<ol className="console-log" aria-label="Conversation" />}>
          <ConsoleLog entries={entries} />
        </Suspense>
      )}
      <ConsoleComposer key={draftKey(dir, target)} capsuleId={target} running={running} placeholder={placeholder} />
    </section>
  );
}

const isRunning = (state: string | undefined) => !!state && state !== 'stopped' && state !== 'failed';

/** What the empty conversation says: true to the moment (no capsule, this one stopped or failed, or ready). */
function emptyLine(
  capsule: { name: string; state: string } | undefined,
  running: boolean,
  anyRunning: boolean,
): string {
  if (!capsule) return 'Add a capsule to the formation, then send it a message here.';
  if (running)
    return `A new conversation with ${capsule.name}: what you send next starts a context, and the messages after it continue it.`;
  if (capsule.state === 'failed')
    return `${capsule.name} failed to start: its Live trace says why; launch it again from its node.`;
  if (anyRunning) return `${capsule.name} is stopped: launch it from its node, or pick a running capsule above.`;
  return `${LAUNCH_ALL} (in the toolbar), or launch a capsule from its node, then send it a message here.`;
}

/** A conversation as the picker lists it: its first message. */
function titleOf(entries: { conversation: number; text: string; data?: string }[], id: number): string {
  const first = entries.find((e) => e.conversation === id);
  const words = first?.text || first?.data || 'conversation';
  return words.length > 40 ? `${words.slice(0, 40)}…` : words;
}
