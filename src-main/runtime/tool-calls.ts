import type { Part } from '../../src-shared/a2a';
import type { ChatMessage, ToolCall } from '../drivers';
import { InputTimeoutError, type TaskRun } from './executor';
import type { Tool, ToolContext, ToolOutcome } from './tool-types';
import { shallowCopy } from './shallow-copy';

// Runs the tool calls of one turn concurrently (parallel delegations), traces each call and
// result, and turns a tool's input request into the task's INPUT_REQUIRED wait.

export class InputWaitFailed extends Error {
  constructor(readonly timeout: InputTimeoutError) {
    super(timeout.message);
  }
}

function toolContext(task: TaskRun): ToolContext {
  return {
    sessionId: task.sessionId,
    taskId: task.taskId,
    contextId: task.contextId,
    traceparent: task.traceparent,
    signal: task.signal,
    trace: (event) => task.trace(event),
    track: (work) => task.track(work),
    ...(task.pauseAt ? { pauseAt: (point) => task.pauseAt!(point) } : {}),
  };
}

async function runOne(call: ToolCall, tools: Tool[], ctx: ToolContext): Promise<ToolOutcome> {
  const tool = tools.find((t) => t.spec.name === call.name);
  if (!tool) return { ok: false, error: `unknown tool ${call.name}` };
  try {
    return await tool.run(call.arguments, ctx);
  } catch (err) {
    return { ok: false, error: (err as Error).message || String(err) };
  }
}

/**
 * The model's calls with each call a tool expands (delegate_task `to: "*"`) replaced by the calls
 * it stands for, ids `<id>_<n>`, so every delegation has its own call, trace lines and result.
 */
export function expandToolCalls(calls: ToolCall[], tools: Tool[]): ToolCall[] {
  return calls.flatMap((call) => {
    const sets = tools.find((t) => t.spec.name === call.name)?.expand?.(call.arguments);
    if (!sets?.length) return [call];
    return sets.map((args, i) => ({ id: `${call.id}_${i + 1}`, name: call.name, arguments: args }));
  });
}

/** Tool results in call order, as conversation messages. Throws InputWaitFailed on input timeout. */
export async function runToolCalls(calls: ToolCall[], tools: Tool[], task: TaskRun): Promise<ChatMessage[]> {
  const ctx = toolContext(task);
  const fieldsOf = (c: ToolCall) => tools.find((t) => t.spec.name === c.name)?.traceFields ?? {};
  for (const c of calls)
    task.trace({ event_type: 'tool_call', call_id: c.id, name: c.name, ...fieldsOf(c), arguments: c.arguments });
  // Copies that keys are added to (shallow-copy.ts).
  const traced = calls.map((c) => shallowCopy(fieldsOf(c)) as Record<string, unknown>);
  const outcomes = await Promise.all(
    calls.map((c, i) => {
      const own = shallowCopy(ctx);
      own.callId = c.id;
      own.traceResult = (fields) => Object.assign(traced[i], fields);
      return runOne(c, tools, own);
    }),
  );
  const messages: ChatMessage[] = [];
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    const out = outcomes[i];
    let content: string;
    let parts: Part[] | undefined;
    let ok = true;
    if ('inputRequired' in out) {
      try {
        content = await task.requestInput(out.inputRequired);
      } catch (err) {
        if (err instanceof InputTimeoutError) throw new InputWaitFailed(err);
        throw err;
      }
    } else if (out.ok) {
      content = out.content;
      parts = out.parts;
      if (out.artifact) task.addArtifact?.({ artifact: out.artifact });
    } else {
      ok = false;
      content = out.error;
    }
    const line = Object.assign(traced[i], {
      event_type: 'tool_result',
      call_id: call.id,
      name: call.name,
      ok,
      result: content,
    });
    task.trace(line);
    messages.push({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content,
      ...(parts?.length ? { parts } : {}),
      ...(ok ? {} : { isError: true }),
    });
  }
  return messages;
}
