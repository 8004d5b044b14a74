import type { Manifest, RehearsalTurn } from '../../src-shared/manifest';
import { AbortedError, InferenceError, type Driver, type ToolCall, type TurnRequest, type TurnResult } from './types';
import { pause } from './retry';
import { fillArguments, scriptedText } from './rehearsal-text';

// The embedded default driver: deterministic and offline. Without a script it acknowledges the
// task by quoting its text. A script (manifest inference.rehearsal.replies) picks, by the task
// text, a list of per-turn behaviours: text, tool calls, errors, latency, token counts, hangs,
// and a paced stream of text fragments (load for the live views).

type Script = NonNullable<NonNullable<Manifest['inference']['rehearsal']>['replies']>;

/** Rough token estimate used when a script gives no counts: one token per 4 characters. */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

export const acknowledgement = (taskText: string): string => `Acknowledged: “${taskText}”`;

/** `when` is a case-insensitive substring, or /regex/flags; absent matches anything. */
export function matchesWhen(when: string | undefined, text: string): boolean {
  if (when === undefined) return true;
  const re = /^\/(.*)\/([a-z]*)$/s.exec(when);
  if (re) {
    try {
      return new RegExp(re[1], re[2]).test(text);
    } catch {
      return false;
    }
  }
  return text.toLowerCase().includes(when.toLowerCase());
}


function promptChars(req: TurnRequest): number {
  let n = req.system?.length ?? 0;
  for (const m of req.messages) n += m.content.length;
  return n;
}

/** The task text: the driver is told it, else it is the last user message. */
function taskTextOf(req: TurnRequest): string {
  if (req.taskText !== undefined) return req.taskText;
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role === 'user') return m.content;
  }
  return '';
}

/** How often a scripted stream wakes to send the fragments that are due (10k/s is 40 a wake). */
const STREAM_TICK_MS = 4;

/**
 * A scripted stream (turn.stream): `frames` short text fragments at `per_second`, paced against
 * the clock, abortable. They load the live views like a fast model would; they are not the
 * turn's text, which stays what the script says.
 */
async function streamFrames(req: TurnRequest, spec: NonNullable<RehearsalTurn['stream']>): Promise<void> {
  const started = performance.now();
  let sent = 0;
  while (sent < spec.frames) {
    const due = Math.min(spec.frames, Math.floor(((performance.now() - started) / 1000) * spec.per_second) + 1);
    for (; sent < due && !req.signal.aborted; sent++) req.onFrame?.({ kind: 'text', text: `fragment ${sent + 1} ` });
    if (sent < spec.frames) await pause(STREAM_TICK_MS, req.signal);
  }
}

export function createRehearsalDriver(manifest: Manifest): Driver {
  const rehearsal = manifest.inference.rehearsal;
  const replies: Script = rehearsal?.replies ?? [];
  const baseDelay = rehearsal?.delay_ms ?? 0;

  const answer = (req: TurnRequest, text: string, turn?: RehearsalTurn): TurnResult => {
    const taskText = taskTextOf(req);
    const toolCalls: ToolCall[] = (turn?.tool_calls ?? []).map((c, i) => ({
      id: `call_${req.turn}_${i + 1}`,
      name: c.name,
      arguments: fillArguments(c.arguments ?? {}, taskText),
    }));
    return {
      text,
      toolCalls,
      stopReason: turn?.stop ?? (toolCalls.length ? 'tool_use' : 'end_turn'),
      tokensIn: turn?.tokens_in ?? estimateTokens(promptChars(req)),
      tokensOut: turn?.tokens_out ?? estimateTokens(text.length),
    };
  };

  return {
    kind: 'rehearsal',
    model: manifest.inference.model,
    async turn(req) {
      if (req.signal.aborted) throw new AbortedError();
      const taskText = taskTextOf(req);
      const reply = replies.find((r) => matchesWhen(r.when, taskText));
      const turn = reply?.turns[req.turn - 1];
      const delay = turn?.delay_ms ?? baseDelay;
      if (delay > 0) await pause(delay, req.signal);
      if (!turn) return answer(req, acknowledgement(taskText));
      if (turn.stream) await streamFrames(req, turn.stream);
      if (turn.hang) {
        await new Promise<never>((_resolve, reject) => {
          if (req.signal.aborted) return reject(new AbortedError());
          req.signal.addEventListener('abort', () => reject(new AbortedError()), { once: true });
        });
      }
      if (turn.error !== undefined) throw new InferenceError(turn.error);
      // A scripted turn arrives whole, so it streams no frames (unless its script says `stream`): its
      // inference and tool_call trace lines already carry everything a live view shows.
      return answer(req, scriptedText(turn, taskText, req.messages), turn);
    },
  };
}
