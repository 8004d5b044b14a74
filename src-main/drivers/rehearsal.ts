import type { Manifest, RehearsalTurn } from '../../src-shared/manifest';
import { AbortedError, InferenceError, type Driver, type ToolCall, type TurnRequest, type TurnResult } from './types';
import { sliceClock } from '../trace';
import { pause } from './retry';
import { givenDivergence, latestToolResults } from './rehearsal-given';
import { matchesMessage, sampleOf, toArtifact, toPart } from './rehearsal-output';
import { answersWithFailedText, fillArguments, lastToolParts, scriptedText } from './rehearsal-text';

// The embedded default driver: deterministic and offline. Without a script it acknowledges the
// task by quoting its text (or, for a capsule with an output contract, answers a sample of its
// shape). A script (manifest inference.rehearsal.replies) picks, by the task text, message id and
// metadata, a list of per-turn behaviours: text, structured data, artifacts, a Message reply, tool
// calls, errors, latency, token counts, hangs, and a paced stream of text fragments.

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

/** Whether the task was canceled, without making its AbortSignal when the runtime says so cheaply. */
const aborted = (req: TurnRequest): boolean => req.aborted ?? req.signal.aborted;

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
    // A wake late by tens of ms owes hundreds of fragments: they go out a main-thread slice at a
    // time (each one is traced and sent to the live views), the event loop running between slices.
    const clock = sliceClock();
    const due = Math.min(spec.frames, Math.floor(((performance.now() - started) / 1000) * spec.per_second) + 1);
    for (; sent < due && !aborted(req); sent++) {
      if (clock.due()) await clock.next();
      if (aborted(req)) break;
      req.onFrame?.({ kind: 'text', text: `fragment ${sent + 1} ` });
    }
    if (sent < spec.frames) await pause(STREAM_TICK_MS, req.signal);
  }
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);

/** A script made from a recording says where this run left what was recorded (trace: rehearsal_diverged). */
function noteDivergence(req: TurnRequest, taskText: string, matched: boolean, turn: RehearsalTurn | undefined): void {
  if (!req.onDivergence) return;
  if (!matched) {
    if (req.turn === 1)
      req.onDivergence({
        reason: `the recording has no task with this text ("${clip(taskText)}"); answered with an acknowledgement`,
      });
    return;
  }
  if (!turn)
    return req.onDivergence({
      reason: `the recording of this task has no turn ${req.turn}; answered with an acknowledgement`,
    });
  if (turn.given) {
    const why = givenDivergence(turn.given, latestToolResults(req.messages));
    if (why) req.onDivergence({ reason: `${why}; the recorded turn is replayed as it was` });
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
    const result: TurnResult = {
      text,
      toolCalls,
      stopReason: turn?.stop ?? (toolCalls.length ? 'tool_use' : 'end_turn'),
      tokensIn: turn?.tokens_in ?? estimateTokens(promptChars(req)),
      tokensOut: turn?.tokens_out ?? estimateTokens(text.length),
    };
    if (turn?.data !== undefined) result.data = turn.data;
    if (turn?.answer_as) result.answerAs = turn.answer_as;
    // A Message reply carries the turn's artifacts as its own parts: a Message has no artifacts.
    if (turn?.answer_as === 'message' && turn.artifacts?.length)
      result.parts = turn.artifacts.flatMap((a) => a.parts.map(toPart));
    if (turn?.pass_tool_parts) {
      const passed = lastToolParts(req.messages);
      if (passed.length) result.parts = [...(result.parts ?? []), ...passed];
    }
    return result;
  };

  /** The turn's artifacts, one artifact update each, paced by their delay_ms. */
  const sendArtifacts = async (req: TurnRequest, turn: RehearsalTurn) => {
    if (turn.answer_as === 'message') return;
    for (const [i, a] of (turn.artifacts ?? []).entries()) {
      if (a.delay_ms) await pause(a.delay_ms, req.signal);
      if (aborted(req)) throw new AbortedError();
      req.onArtifact?.({
        artifact: toArtifact(a, `artifact_${req.turn}_${i + 1}`),
        append: a.append,
        lastChunk: a.last_chunk ?? true,
      });
    }
  };

  /** No scripted turn: the acknowledgement, or a sample of the output contract's shape. */
  const unscripted = (req: TurnRequest, taskText: string): TurnResult => {
    const text = acknowledgement(taskText);
    if (!req.responseSchema) return answer(req, text);
    return { ...answer(req, text), data: sampleOf(req.responseSchema, text) };
  };

  return {
    kind: 'rehearsal',
    model: manifest.inference.model,
    // A script gives structured answers as `data`; unscripted turns answer a sample of the schema.
    structuredOutput: 'native',
    // Scripted turns are computed here, paced by abortable timers whose callbacks cannot throw.
    contained: true,
    answersAsMessage(taskText, taskMessage) {
      const first = replies.find((r) => matchesWhen(r.when, taskText) && matchesMessage(r, taskMessage))?.turns[0];
      return first?.answer_as === 'message' && !first.tool_calls?.length && !first.hang && first.error === undefined;
    },
    async turn(req) {
      if (aborted(req)) throw new AbortedError();
      const taskText = taskTextOf(req);
      const reply = replies.find((r) => matchesWhen(r.when, taskText) && matchesMessage(r, req.taskMessage));
      const turn = reply?.turns[req.turn - 1];
      if (rehearsal?.recorded_from) noteDivergence(req, taskText, reply !== undefined, turn);
      const delay = turn?.delay_ms ?? baseDelay;
      if (delay > 0) await pause(delay, req.signal);
      if (!turn) return unscripted(req, taskText);
      if (turn.stream) await streamFrames(req, turn.stream);
      if (turn.hang) {
        await new Promise<never>((_resolve, reject) => {
          if (req.signal.aborted) return reject(new AbortedError());
          req.signal.addEventListener('abort', () => reject(new AbortedError()), { once: true });
        });
      }
      if (turn.error !== undefined) throw new InferenceError(turn.error);
      await sendArtifacts(req, turn);
      // A scripted turn arrives whole, so it streams no frames (unless its script says `stream`): its
      // inference and tool_call trace lines already carry everything a live view shows.
      const result = answer(req, scriptedText(turn, taskText, req.messages), turn);
      // The script's answer for when everything failed says so; it is not an answer of its own.
      if (answersWithFailedText(turn, req.messages)) result.reportsFailure = true;
      return result;
    },
  };
}
