import { z } from 'zod';
import type { Tool } from './tool-types';

// The built-in request_input tool: the model asks its caller a question; the task waits in
// TASK_STATE_INPUT_REQUIRED until a message with the same taskId answers it.

// Bounded: the question goes into the task's status, which callers and the Studio show.
const args = z.object({
  question: z
    .string()
    .min(1)
    .max(16 * 1024),
});

export const requestInputTool: Tool = {
  spec: {
    name: 'request_input',
    description: 'Ask the person or agent who sent this task a question and wait for the answer.',
    parameters: {
      type: 'object',
      properties: { question: { type: 'string', description: 'The question to ask.' } },
      required: ['question'],
    },
  },
  async run(raw) {
    const parsed = args.safeParse(raw);
    if (!parsed.success)
      return { ok: false, error: 'request_input needs a non-empty "question" string of at most 16384 characters' };
    return { inputRequired: parsed.data.question };
  },
};
