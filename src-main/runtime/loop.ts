import {
  createDriver,
  createForkDriver,
  InferenceError,
  type ArtifactChunk,
  type ChatMessage,
  type ToolCall,
  type ToolSpec,
  type TurnFrame,
  type TurnRequest,
  type TurnResult,
} from '../drivers';
import { createStreamMask, type StreamMask } from '../trace';
import type { ExecutorDeps, TaskExecutor, TaskOutcome, TaskRun } from './executor';
import type { Tool } from './tool-types';
import { expandToolCalls, InputWaitFailed, runToolCalls } from './tool-calls';
import { DelegationTally } from './delegations';
import {
  checkAnswer,
  correction,
  parseAnswerJson,
  renderAnswer,
  RESPOND_TOOL,
  respondTool,
  respondsValidator,
} from './responds';

// The agent loop: driver turns with tools, under the failure rules of docs/door.md.
// Each turn: ask the model; run the tool calls it made (concurrently); stop when it answers.
// With an output contract (manifest `responds`) the answer must match it: one that does not is
// shown its problems and asked again while turns are left, and fails the task after the last.

export const DEFAULT_MAX_TURNS = 16;

// The callbacks a task and each of its turns hand out are made by these functions rather than
// written inline: the CLI runs through tsx, which names every inline function it assigns (a
// defineProperty call each, a microsecond apiece on the door's hot path).
const pusher = (task: TaskRun, conv: ChatMessage[]) => (m: ChatMessage) => {
  if (!task.aborted) conv.push(m);
};
const framer = (task: TaskRun, turn: number) => (text: string) => {
  if (text) task.trace({ event_type: 'frame', kind: 'text_delta', turn, text });
};
const artifactsOf = (task: TaskRun) => (chunk: ArtifactChunk) => task.addArtifact?.(chunk);
const framesOf = (frame: (text: string) => void, mask: StreamMask | undefined) => (f: TurnFrame) => {
  if (f.kind === 'text' && f.text) frame(mask ? mask.push(f.text) : f.text);
};
const retriesOf = (task: TaskRun, turn: number) => (info: { attempt: number; delayMs: number; reason: string }) =>
  task.trace({
    event_type: 'inference_retry',
    turn,
    attempt: info.attempt,
    delay_ms: info.delayMs,
    reason: info.reason,
  });
const divergencesOf = (task: TaskRun, turn: number) => (info: { reason: string }) =>
  task.trace({ event_type: 'rehearsal_diverged', turn, reason: info.reason });

/** A successful outcome with what the turn adds to its answer: how to answer, and more parts. */
function withExtras(outcome: TaskOutcome & { ok: true }, result: TurnResult): TaskOutcome {
  // Keys set one by one: spreads of small objects made per task cost more (shallow-copy.ts).
  if (result.answerAs) outcome.answerAs = result.answerAs;
  if (result.parts?.length) outcome.parts = result.parts;
  return outcome;
}

/**
 * One turn's request. Its signal is the task's, made only when a driver asks for it (a provider's
 * SDK does; a rehearsal turn only reads `aborted`); getters on a class cost nothing per turn.
 */
class TaskTurn implements TurnRequest {
  system?: string;
  maxTokens?: number;
  responseSchema?: Record<string, unknown>;
  readonly taskMessage: TurnRequest['taskMessage'];
  readonly onArtifact: TurnRequest['onArtifact'];
  /** Streamed text reaches the trace as it arrives; tool calls get their own tool_call events. */
  readonly onFrame: TurnRequest['onFrame'];
  readonly onRetry: TurnRequest['onRetry'];
  readonly onDivergence: TurnRequest['onDivergence'];
  constructor(
    private readonly task: TaskRun,
    readonly turn: number,
    readonly messages: ChatMessage[],
    readonly tools: ToolSpec[],
    readonly taskText: string,
    mask: StreamMask | undefined,
    frame: (text: string) => void,
  ) {
    this.taskMessage = task.message;
    this.onArtifact = artifactsOf(task);
    this.onFrame = framesOf(frame, mask);
    this.onRetry = retriesOf(task, turn);
    this.onDivergence = divergencesOf(task, turn);
  }
  get signal(): AbortSignal {
    return this.task.signal;
  }
  get aborted(): boolean {
    return this.task.aborted;
  }
}

export function createAgentLoop(deps: ExecutorDeps): TaskExecutor {
  const inference = deps.manifest.inference;
  const own = createDriver(deps.manifest, { env: deps.env, secrets: deps.secrets });
  const driver = deps.fork ? createForkDriver(own, deps.manifest, deps.fork) : own;
  const maxTurns = inference.max_turns ?? DEFAULT_MAX_TURNS;
  const budget = inference.budget;
  const schema = deps.manifest.responds;
  // A bad contract stops the launch here, not every task later.
  if (schema) respondsValidator(schema);
  // Without a provider structured-output mode the contract is offered as a tool to answer with.
  const respond = schema && driver.structuredOutput !== 'native' ? respondTool(schema) : undefined;
  const specsOf = (tools: Tool[]) => [...tools.map((t) => t.spec), ...(respond ? [respond.spec] : [])];
  const fixedSpecs = specsOf(deps.tools);
  const streamSecrets = deps.secrets.filter((s) => s.length >= 4);

  const overBudget = (run: TaskRun): string | undefined => {
    const { tokensIn, tokensOut } = run.usage;
    if (budget?.max_tokens !== undefined && tokensIn + tokensOut > budget.max_tokens) {
      return `spend ceiling reached: ${tokensIn + tokensOut} tokens used, inference.budget.max_tokens is ${budget.max_tokens}`;
    }
    if (budget?.max_usd !== undefined && deps.priceUsd) {
      const usd = deps.priceUsd(driver.model, tokensIn, tokensOut);
      if (usd !== undefined && usd > budget.max_usd) {
        return `spend ceiling reached: $${usd.toFixed(4)} spent, inference.budget.max_usd is ${budget.max_usd}`;
      }
    }
    return undefined;
  };

  /** The answer is given: checked against the contract, or the problems to show the model. */
  const settle = (text: string, result: TurnResult, given?: unknown): TaskOutcome | { retry: string[] } => {
    const data = given ?? result.data;
    if (!schema)
      return withExtras(
        data === undefined ? { ok: true, answer: text } : { ok: true, answer: text || renderAnswer(data), data },
        result,
      );
    let candidate = data;
    if (candidate === undefined) {
      const parsed = parseAnswerJson(text);
      if (!parsed.ok) return { retry: [parsed.problem] };
      candidate = parsed.data;
    }
    const check = checkAnswer(schema, candidate);
    if (!check.ok) return { retry: check.problems };
    // A script's text beside its data is the text to show; a model's words before a respond call are not the answer.
    return withExtras(
      {
        ok: true,
        answer: result.data !== undefined && given === undefined && text ? text : renderAnswer(candidate),
        data: candidate,
      },
      result,
    );
  };
  const invalid = (problems: string[]): TaskOutcome => ({
    ok: false,
    cause: 'invalid_response',
    message: `the answer does not match the responds schema after ${maxTurns} turn(s) (inference.max_turns): ${problems.join('; ')}`,
  });

  /** The task's turns; `tally` counts its delegations, `last` says whether its last turn only reported a failure. */
  async function runTurns(
    task: TaskRun,
    tally: DelegationTally,
    last: { reportsFailure: boolean },
  ): Promise<TaskOutcome> {
    const conv = task.conversation;
    const push = pusher(task, conv);
    push({ role: 'user', content: task.text });
    let answer = '';
    let emptyInARow = 0;
    // The task's text as the driver reads it (a rehearsal script picks its reply by it): a pause
    // before the first turn may edit it.
    let taskText = task.text;

    for (let turn = 1; turn <= maxTurns; turn++) {
      const hold = task.pauseAt?.({ kind: 'turn', turn, text: conv[conv.length - 1]?.content ?? '' });
      if (hold) {
        // The edited message replaces what the model was about to read.
        const { text, edited } = await hold;
        if (edited && conv.length) {
          conv[conv.length - 1] = { ...conv[conv.length - 1], content: text };
          if (turn === 1) taskText = text;
        }
      }
      // MCP servers' tools are listed again before each turn (a server may change its list).
      const tools = deps.moreTools
        ? [...deps.tools, ...(await deps.moreTools(task.signal).catch(() => []))]
        : deps.tools;
      if (task.aborted) return { ok: false, cause: 'executor_error', message: 'canceled' };
      const specs = deps.moreTools ? specsOf(tools) : fixedSpecs;
      const started = Date.now();
      task.setWaiting(`inference turn ${turn}`);
      let result: TurnResult;
      // Streamed text is masked on the stream: a secret split over several deltas never goes out.
      const mask = streamSecrets.length ? createStreamMask(streamSecrets) : undefined;
      const frame = framer(task, turn);
      try {
        const req = new TaskTurn(task, turn, conv, specs, taskText, mask, frame);
        req.system = inference.system_prompt;
        req.maxTokens = inference.max_tokens;
        if (schema) req.responseSchema = schema;
        // A provider's SDK may throw out of band: its turn runs in the task's last-resort scope.
        result = await (driver.contained ? driver.turn(req) : task.guard(() => driver.turn(req)));
      } catch (err) {
        if (mask) frame(mask.end());
        if (task.aborted) throw err;
        const message = err instanceof InferenceError ? err.message : `inference failed: ${(err as Error).message}`;
        return { ok: false, cause: 'inference_error', message };
      }
      if (mask) frame(mask.end());
      if (task.aborted) return { ok: false, cause: 'executor_error', message: 'canceled' };
      // Expanded before anything records the turn: the trace and the conversation hold the calls run.
      // A turn without tool calls (most of them) keeps the driver's result as it is.
      if (result.toolCalls.length) result = { ...result, toolCalls: expandToolCalls(result.toolCalls, tools) };
      last.reportsFailure = result.reportsFailure === true;
      task.usage.turns = turn;
      task.usage.tokensIn += result.tokensIn;
      task.usage.tokensOut += result.tokensOut;
      task.trace({
        event_type: 'inference',
        turn,
        tokens_in: result.tokensIn,
        tokens_out: result.tokensOut,
        stop_reason: result.stopReason,
        text: result.text,
        tool_calls: result.toolCalls.map((c: ToolCall) => ({ id: c.id, name: c.name, arguments: c.arguments })),
        duration_ms: Date.now() - started,
      });
      // The ceiling stops further spending: checked before every turn after the first.
      const spent = overBudget(task);

      const respondCall = respond ? result.toolCalls.find((c) => c.name === RESPOND_TOOL) : undefined;
      if (respond && respondCall) {
        // The answer came as the respond tool's arguments; the other calls of the turn are dropped.
        push({ role: 'assistant', content: result.text, toolCalls: [respondCall] });
        const settled = settle(result.text, result, respond.fromTool(respondCall.arguments));
        const problems = 'retry' in settled ? settled.retry : undefined;
        push({
          role: 'tool',
          toolCallId: respondCall.id,
          name: RESPOND_TOOL,
          content: problems ? correction(problems) : 'answer recorded',
          ...(problems ? { isError: true } : {}),
        });
        if (!problems) return settled as TaskOutcome;
        task.trace({ event_type: 'answer_invalid', turn, problems });
        if (turn === maxTurns) return invalid(problems);
        if (spent) return { ok: false, cause: 'budget', message: spent };
        continue;
      }

      if (result.toolCalls.length) {
        if (spent) return { ok: false, cause: 'budget', message: spent };
        emptyInARow = 0;
        push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
        task.setWaiting(`tools: ${result.toolCalls.map((c) => c.name).join(', ')}`);
        let results: ChatMessage[];
        try {
          // Tools (delegations, shell, MCP) may lose an error in work they detach: their scope catches it.
          results = await task.guard(() => runToolCalls(result.toolCalls, tools, task));
        } catch (err) {
          if (err instanceof InputWaitFailed) return { ok: false, cause: 'input_timeout', message: err.message };
          throw err;
        }
        for (const r of results) push(r);
        tally.note(result.toolCalls, results, tools);
        continue;
      }
      if (result.stopReason === 'max_tokens') {
        if (!result.text) {
          if (spent) return { ok: false, cause: 'budget', message: spent };
          emptyInARow++;
          if (emptyInARow >= 2) {
            return {
              ok: false,
              cause: 'max_tokens',
              message: 'two turns in a row stopped at inference.max_tokens with no text and no tool call',
            };
          }
          continue;
        }
        // A reply cut off by max_tokens: keep it and let the model go on, unless no turn is left.
        emptyInARow = 0;
        answer += result.text;
        push({ role: 'assistant', content: result.text });
        if (turn === maxTurns) {
          const settled = settle(answer, result);
          return 'retry' in settled ? invalid(settled.retry) : settled;
        }
        if (spent) return { ok: false, cause: 'budget', message: spent };
        push({ role: 'user', content: 'Continue exactly where you stopped.' });
        continue;
      }
      answer += result.text;
      push({ role: 'assistant', content: result.text });
      const settled = settle(answer, result);
      if (!('retry' in settled)) return settled;
      task.trace({ event_type: 'answer_invalid', turn, problems: settled.retry });
      if (turn === maxTurns) return invalid(settled.retry);
      if (spent) return { ok: false, cause: 'budget', message: spent };
      answer = '';
      push({ role: 'user', content: correction(settled.retry) });
    }
    return {
      ok: false,
      cause: 'max_turns',
      message: `used every turn inference.max_turns allows (${maxTurns}) without a final answer`,
    };
  }

  async function run(task: TaskRun): Promise<TaskOutcome> {
    const tally = new DelegationTally();
    const last = { reportsFailure: false };
    return tally.judge(await runTurns(task, tally, last), last.reportsFailure);
  }

  return {
    run,
    guardsItself: true,
    answersAsMessage: (message, text) => driver.answersAsMessage?.(text, message) ?? false,
    dispose: () => driver.dispose?.(),
  };
}
