import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import {
  FRAMES_EXTENSION_URI,
  isTerminal,
  type Message,
  type Part,
  type Task,
  type TaskState,
} from '../../src-shared/a2a';
import { newMessageId } from '../../src-shared/ids';
// The client alone, not the door's index: a command that only calls doors need not load fastify.
import { door } from '../door/client';
import { resolveRunningSession } from '../trace';
import { parseCommandArgs } from './args';
import { UserError } from './errors';
import { layout } from './home';
import { RUNNING_ADDRESS_HELP, ADDRESS_RULE_HELP } from './session-help';

// `capsule send <session> <text>`: one task to a running session's door, as any A2A client sends
// it. Waits for the task's end and prints its answer (or streams it, or only prints the task id),
// and exits with a status that says how the task ended.

/** The door takes at most 1 MiB per request; base64 grows a file by a third. */
const MAX_FILE_BYTES = 700 * 1024;
const MAX_DATA_CHARS = 256 * 1024;
const POLL_MIN_MS = 100;
const POLL_MAX_MS = 1000;

export const usage = `usage: capsule send <session> [text] [--file F]… [--data JSON] [--context ID] [--task ID] [--no-wait | --stream]
  <session>    ${RUNNING_ADDRESS_HELP}
  <text>       the message (may be left out when --file or --data says it all)
  --file, -f   attach a file as a file part (repeatable; ${kib(MAX_FILE_BYTES)} KiB in all)
  --data       a JSON value sent as a data part (application/json)
  --context    continue a conversation: the context id of an earlier task
  --task       answer a task that waits for input (its id, as printed)
  --no-wait    print the task id as soon as the door has taken the task, and exit
  --stream     print the answer as it comes (SendStreamingMessage)
The answer goes to stdout; the task id and its final state to stderr. Exit status: 0 completed,
1 failed or rejected, 3 canceled, 4 waiting for input (answer it with --task), 2 usage.
${ADDRESS_RULE_HELP}`;

function kib(n: number): number {
  return Math.floor(n / 1024);
}

const options = {
  file: { type: 'string', short: 'f', multiple: true },
  data: { type: 'string' },
  context: { type: 'string' },
  task: { type: 'string' },
  'no-wait': { type: 'boolean' },
  stream: { type: 'boolean' },
} as const;

const MEDIA_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

function fileParts(files: readonly string[]): Part[] {
  let total = 0;
  return files.map((file) => {
    let bytes: Buffer;
    try {
      const size = statSync(file).size;
      total += size;
      if (total > MAX_FILE_BYTES)
        throw new UserError(
          `--file: the files add up to more than ${kib(MAX_FILE_BYTES)} KiB, more than a door takes in one message`,
        );
      bytes = readFileSync(file);
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(
        `--file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
    return {
      raw: bytes.toString('base64'),
      filename: basename(file),
      mediaType: MEDIA_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    };
  });
}

function dataPart(json: string): Part {
  if (json.length > MAX_DATA_CHARS) throw new UserError(`--data: at most ${kib(MAX_DATA_CHARS)} KiB of JSON`, 2);
  try {
    return { data: JSON.parse(json), mediaType: 'application/json' };
  } catch (err) {
    throw new UserError(`--data is not JSON: ${(err as Error).message}`, 2);
  }
}

/** What a task answered: its artifacts' text parts (residue and other data left out). */
function answerOf(task: Task): string {
  const texts = (task.artifacts ?? [])
    .filter((a) => a.name !== 'residue')
    .flatMap((a) => a.parts.map((p) => p.text ?? ''));
  return texts.filter(Boolean).join('\n');
}

const statusText = (task: Task) =>
  (task.status.message?.parts ?? [])
    .map((p) => p.text ?? '')
    .filter(Boolean)
    .join(' ');

/** The exit status a final (or interrupted) state means. */
export function exitCodeOf(state: TaskState | string): number {
  if (state === 'TASK_STATE_COMPLETED') return 0;
  if (state === 'TASK_STATE_CANCELED') return 3;
  if (state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED') return 4;
  return 1;
}

const settled = (state: string) =>
  isTerminal(state as TaskState) || state === 'TASK_STATE_INPUT_REQUIRED' || state === 'TASK_STATE_AUTH_REQUIRED';

function report(task: Task, printAnswer: boolean, address: string): number {
  const answer = answerOf(task);
  if (printAnswer && answer) process.stdout.write(`${answer}\n`);
  const note = task.status.state === 'TASK_STATE_COMPLETED' ? '' : statusText(task);
  if (task.status.state === 'TASK_STATE_INPUT_REQUIRED') {
    process.stderr.write(
      `capsule: task ${task.id} waits for input: ${note}\ncapsule: answer with: capsule send ${address} --task ${task.id} "<answer>"\n`,
    );
    return exitCodeOf(task.status.state);
  }
  process.stderr.write(`capsule: task ${task.id} ${task.status.state}${note ? `: ${note}` : ''}\n`);
  return exitCodeOf(task.status.state);
}

/** Ctrl-C stops waiting, not the task: say how to reach it. */
function onInterrupt(sessionAddress: string, taskId: () => string | undefined): () => void {
  const handler = () => {
    const id = taskId();
    process.stderr.write(
      id
        ? `\ncapsule: stopped waiting; task ${id} keeps running (capsule cancel ${sessionAddress} ${id})\n`
        : '\ncapsule: stopped waiting\n',
    );
    process.exit(130);
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

async function waitFor(url: string, first: Task): Promise<Task> {
  let task = first;
  let delay = POLL_MIN_MS;
  while (!settled(task.status.state)) {
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(POLL_MAX_MS, delay * 2);
    task = await door.getTask(url, task.id, 0);
  }
  return task;
}

async function stream(url: string, message: Message, address: string): Promise<number> {
  let task: Task | undefined;
  let state = '';
  let printed = false;
  let lineOpen = false;
  let deltas = false;
  const off = onInterrupt(address, () => task?.id);
  const write = (text: string) => {
    process.stdout.write(text);
    printed = true;
    lineOpen = !text.endsWith('\n');
  };
  try {
    for await (const event of door.streamMessage(url, { message }, { extensions: FRAMES_EXTENSION_URI })) {
      if (event.task) task = event.task;
      if (event.message) write(`${event.message.parts.map((p) => p.text ?? '').join('')}\n`);
      const frame = event.statusUpdate?.metadata?.[FRAMES_EXTENSION_URI] as
        { kind?: string; text?: string } | undefined;
      if (frame?.kind === 'text_delta' && frame.text) {
        write(frame.text);
        deltas = true;
      } else if (frame?.kind === 'text' && frame.text) {
        // After its deltas, a turn's whole text would repeat them: only the line is ended.
        if (!deltas) write(`${frame.text}\n`);
        else if (lineOpen) write('\n');
        deltas = false;
      } else if (event.statusUpdate && !frame) state = event.statusUpdate.status.state;
      if (event.task) state = event.task.status.state;
    }
  } finally {
    off();
  }
  if (lineOpen) process.stdout.write('\n');
  if (!task) return 0; // the door answered with a message, not a task
  // The stream carries the state; the task as the door keeps it carries the answer and its words.
  const final = await door
    .getTask(url, task.id, 0)
    .catch(() => ({ ...task!, status: { ...task!.status, state: state as TaskState } }));
  return report(final, !printed, address);
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('send', argv, options, usage);
  const [address, ...words] = positionals;
  if (!address) throw new UserError(`send needs a session and a message\n${usage}`, 2);
  if (values['no-wait'] && values.stream)
    throw new UserError(`send: --no-wait and --stream do not go together\n${usage}`, 2);
  const text = words.join(' ');
  const parts: Part[] = [
    ...(text ? [{ text }] : []),
    ...fileParts(values.file ?? []),
    ...(values.data !== undefined ? [dataPart(values.data)] : []),
  ];
  if (!parts.length) throw new UserError(`send needs a message: text, --file or --data\n${usage}`, 2);
  const session = resolveRunningSession(address, layout().running);
  const message: Message = {
    messageId: newMessageId(),
    role: 'ROLE_USER',
    parts,
    ...(values.context ? { contextId: values.context } : {}),
    ...(values.task ? { taskId: values.task } : {}),
  };

  if (values.stream) return stream(session.url, message, address);
  const answer = await door.sendMessage(session.url, { message, configuration: { returnImmediately: true } });
  if (answer.message) {
    process.stdout.write(`${answer.message.parts.map((p) => p.text ?? '').join('')}\n`);
    return 0;
  }
  const task = answer.task!;
  if (values['no-wait']) {
    process.stdout.write(`${task.id}\n`);
    return 0;
  }
  const off = onInterrupt(address, () => task.id);
  try {
    return report(await waitFor(session.url, task), true, address);
  } finally {
    off();
  }
}
