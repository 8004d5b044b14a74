import { createDriver, InferenceError, type ChatMessage, type ToolCall, type TurnResult } from '../drivers';
import { createStreamMask } from '../trace';
import type { ExecutorDeps, TaskExecutor, TaskOutcome, TaskRun } from './executor';
import { expandToolCalls, InputWaitFailed, runToolCalls } from './tool-calls';

// The agent loop: driver turns with tools, under the limits of seed 000's TASK_STATE_FAILED row.
// Each turn: ask the model; run the tool calls it made (concurrently); stop when it answers.

export const DEFAULT_MAX_TURNS = 16;

export function createAgentLoop(deps: ExecutorDeps): TaskExecutor {
  const inference = deps.manifest.inference;
  const driver = createDriver(deps.manifest, { env: deps.env, secrets: deps.secrets });
  const maxTurns = inference.max_turns ?? DEFAULT_MAX_TURNS;
  const specs = deps.tools.map((t) => t.spec);
  const budget = inference.budget;
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

  async function run(task: TaskRun): Promise<TaskOutcome> {
    const conv = task.conversation;
    const push = (m: ChatMessage) => {
      if (!task.signal.aborted) conv.push(m);
    };
    push({ role: 'user', content: task.text });
    let answer = '';
    let emptyInARow = 0;
    for (let turn = 1; turn <= maxTurns; turn++) {
      const started = Date.now();
      task.setWaiting(`inference turn ${turn}`);
      let result: TurnResult;
      // Streamed text is masked on the stream: a secret split over several deltas never goes out.
      const mask = streamSecrets.length ? createStreamMask(streamSecrets) : undefined;
      const frame = (text: string) => {
        if (text) task.trace({ event_type: 'frame', kind: 'text_delta', turn, text });
      };
      try {
        result = await driver.turn({
          system: inference.system_prompt,
          messages: conv,
          tools: specs,
          maxTokens: inference.max_tokens,
          turn,
          taskText: task.text,
          signal: task.signal,
          // Streamed text reaches the trace as it arrives; tool calls get their own tool_call events.
          onFrame: (f) => {
            if (f.kind === 'text' && f.text) frame(mask ? mask.push(f.text) : f.text);
          },
          onRetry: (info) => task.trace({ event_type: 'inference_retry', turn, attempt: info.attempt, delay_ms: info.delayMs, reason: info.reason }),
        });
      } catch (err) {
        if (mask) frame(mask.end());
        if (task.signal.aborted) throw err;
        const message = err instanceof InferenceError ? err.message : `inference failed: ${(err as Error).message}`;
        return { ok: false, cause: 'inference_error', message };
      }
      if (mask) frame(mask.end());
      if (task.signal.aborted) return { ok: false, cause: 'executor_error', message: 'canceled' };
      // Expanded before anything records the turn: the trace and the conversation hold the calls run.
      result = { ...result, toolCalls: expandToolCalls(result.toolCalls, deps.tools) };
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

      if (result.toolCalls.length) {
        if (spent) return { ok: false, cause: 'budget', message: spent };
        emptyInARow = 0;
        push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
        task.setWaiting(`tools: ${result.toolCalls.map((c) => c.name).join(', ')}`);
        let results: ChatMessage[];
        try {
          results = await runToolCalls(result.toolCalls, deps.tools, task);
        } catch (err) {
          if (err instanceof InputWaitFailed) return { ok: false, cause: 'input_timeout', message: err.message };
          throw err;
        }
        for (const r of results) push(r);
        continue;
      }
      if (result.stopReason === 'max_tokens') {
        if (!result.text) {
          if (spent) return { ok: false, cause: 'budget', message: spent };
          emptyInARow++;
          if (emptyInARow >= 2) {
            return { ok: false, cause: 'max_tokens', message: 'two turns in a row stopped at inference.max_tokens with no text and no tool call' };
          }
          continue;
        }
        // A reply cut off by max_tokens: keep it and let the model go on, unless no turn is left.
        emptyInARow = 0;
        answer += result.text;
        push({ role: 'assistant', content: result.text });
        if (turn === maxTurns) return { ok: true, answer };
        if (spent) return { ok: false, cause: 'budget', message: spent };
        push({ role: 'user', content: 'Continue exactly where you stopped.' });
        continue;
      }
      answer += result.text;
      push({ role: 'assistant', content: result.text });
      return { ok: true, answer };
    }
    return { ok: false, cause: 'max_turns', message: `used every turn inference.max_turns allows (${maxTurns}) without a final answer` };
  }

  return { run, dispose: () => driver.dispose?.() };
}
