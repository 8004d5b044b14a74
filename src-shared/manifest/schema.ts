import { z } from 'zod';
import { isServableMethod } from './methods';

// The murmur.yaml format (docs/door.md), plus what the product adds (description, skills, system
// prompt, rehearsal script, shell allow list, spend ceiling, input contract). Every object is
// strict so that a misspelt key is reported instead of silently ignored.

const duration = z.union([
  z.number().nonnegative(),
  z.string().regex(/^\d+(ms|s|m|h)$/, 'a duration such as 500ms, 30s, 10m or 1h'),
]);

export const artifactSchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().optional(),
  runtime: z.enum(['driver', 'tool', 'capsule']).optional(),
  gateway: z
    .strictObject({
      endpoint: z.string().url().optional(),
      api_key: z.string().optional(),
    })
    .optional(),
});

/**
 * One part of a scripted artifact or reply: exactly one of text, data (any JSON value), bytes (a
 * file's content, base64) or url (a file by reference), with an optional media type and file name.
 */
export const rehearsalPartSchema = z
  .strictObject({
    text: z.string().optional(),
    data: z.unknown().optional(),
    bytes: z.base64('base64 text (the file content encoded as base64)').optional(),
    url: z.url().optional(),
    media_type: z.string().min(1).optional(),
    filename: z.string().min(1).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine(
    (p) => [p.text, p.data, p.bytes, p.url].filter((x) => x !== undefined).length === 1,
    'a part has exactly one of text, data, bytes or url',
  );

/** An artifact a scripted turn produces while the task works (an artifact update on a stream). */
export const rehearsalArtifactSchema = z.strictObject({
  /** The artifactId; chunks of one artifact share it. Defaults to one per turn and position. */
  id: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  parts: z.array(rehearsalPartSchema).min(1),
  /** These parts extend the artifact with the same id sent earlier (append: true on the wire). */
  append: z.boolean().optional(),
  /** false when more chunks of this artifact follow (lastChunk on the wire); true by default. */
  last_chunk: z.boolean().optional(),
  /** Pause before this artifact goes out, so a stream shows the updates one by one. */
  delay_ms: z.number().int().nonnegative().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** One scripted turn of the rehearsal driver. Exactly one of text/tool_calls/error/hang is the point of the turn. */
export const rehearsalTurnSchema = z.strictObject({
  /** `{{task}}` is the task's text; `{{tool_results}}` one line per result of the previous turn's tool calls. */
  text: z.string().optional(),
  /** The structured answer itself (checked against `responds` like a model's would be). */
  data: z.unknown().optional(),
  /** Artifacts sent while the turn works, in order. */
  artifacts: z.array(rehearsalArtifactSchema).max(1000).optional(),
  /** `message`: a blocking SendMessage is answered with a Message rather than the Task. */
  answer_as: z.enum(['task', 'message']).optional(),
  /** The answer carries the images, audio and files of the previous turn's tool results (an MCP tool's) as parts. */
  pass_tool_parts: z.boolean().optional(),
  /** Used instead of `text` when every tool call of the previous turn failed (so the answer never claims success). */
  failed_text: z.string().optional(),
  /** Used instead of `text` when some, not all, tool calls of the previous turn failed (so the answer never claims they all worked). */
  partial_text: z.string().optional(),
  tool_calls: z
    .array(z.strictObject({ name: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) }))
    .optional(),
  error: z.string().optional(),
  hang: z.boolean().optional(),
  delay_ms: z.number().int().nonnegative().optional(),
  tokens_in: z.number().int().nonnegative().optional(),
  tokens_out: z.number().int().nonnegative().optional(),
  stop: z.enum(['end_turn', 'max_tokens', 'tool_use']).optional(),
  /** Streams `frames` text fragments at `per_second` before the turn's result: load for the live views. */
  stream: z
    .strictObject({
      frames: z.number().int().positive().max(10_000_000),
      per_second: z.number().int().positive().max(1_000_000),
    })
    .optional(),
  /** In a script made from a recording: the tool results this turn followed there; others are traced as a divergence. */
  given: z.array(z.string()).optional(),
});

/**
 * One recorded MCP tool call (a script made from a recording): what the server answered to this
 * tool and these arguments. A script that has them plays MCP calls back; no server is started.
 */
export const rehearsalMcpCallSchema = z.strictObject({
  server: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  /** false: the call failed, and `result` is what the model read of the failure. */
  ok: z.boolean().default(true),
  result: z.string(),
  /** Images, audio and files of the result (bytes or url), as the model was handed them. */
  parts: z.array(rehearsalPartSchema).max(64).optional(),
});

export const rehearsalSchema = z.strictObject({
  delay_ms: z.number().int().nonnegative().optional(),
  /** The session this script was made from (capsule rehearse): a task it has no reply for is traced as a divergence. */
  recorded_from: z.string().optional(),
  replies: z
    .array(
      z.strictObject({
        /** Case-insensitive substring of the task text, or /regex/; absent matches anything. */
        when: z.string().optional(),
        /** The task's first message has a messageId starting with this. */
        message_id: z.string().min(1).optional(),
        /** Every key given here has this value in the task's first message's metadata. */
        metadata: z.record(z.string(), z.unknown()).optional(),
        turns: z.array(rehearsalTurnSchema).min(1),
      }),
    )
    .default([]),
  /**
   * Recorded MCP tool calls, answered in place of the servers. A script with these, or one made
   * from a recording (`recorded_from`), starts no MCP server: a call it has no answer for fails.
   */
  mcp_calls: z.array(rehearsalMcpCallSchema).max(10_000).optional(),
});

export const harnessSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  /** How the prompt goes in: as an argument ({prompt} in args) or on stdin. */
  prompt: z.enum(['arg', 'stdin']).default('stdin'),
  /** How to interrupt: bytes written to stdin (e.g. "\u0003"), SIGINT, or none (killed at once). */
  interrupt: z.union([z.literal('sigint'), z.literal('none'), z.strictObject({ stdin: z.string() })]).default('sigint'),
  grace_ms: z.number().int().nonnegative().default(10_000),
  resume_args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});

/**
 * One MCP server a capsule may use: a local one started as a process (`command`, `args`, `env`,
 * `cwd`) or a remote one over Streamable HTTP (`url`, `headers`). `tools` narrows what the model
 * is offered (all of the server's tools when absent, none when empty).
 */
export const mcpServerSchema = z
  .strictObject({
    /** Letters, digits and dashes: the model sees the server's tools as `<name>__<tool>`. */
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/i, 'letters, digits or dashes (max 32)'),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    /** The server process's whole environment besides PATH: nothing else of the runtime's is passed on. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string()).optional(),
    /** Where the process runs, relative to the manifest's folder (the manifest's folder when absent). */
    cwd: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }).optional(),
    headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'an HTTP header name'), z.string()).optional(),
    tools: z.array(z.string().min(1)).optional(),
    /** How long one tool call may take (60s when absent). */
    timeout: duration.optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.command === undefined) === (s.url === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'a server has exactly one of command (a local process) or url (a remote server)',
      });
    const wrong = s.url !== undefined ? (['args', 'env', 'cwd'] as const) : (['headers'] as const);
    for (const key of wrong)
      if (s[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message:
            s.url !== undefined
              ? `${key} is for a local server (command); a remote one (url) has headers`
              : 'headers are for a remote server (url)',
        });
  });

/** `capabilities.mcp`: the MCP servers whose tools the capsule may use. */
export const mcpSchema = z
  .strictObject({ servers: z.array(mcpServerSchema).max(64).default([]) })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.servers.forEach((s, i) => {
      const key = s.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['servers', i, 'name'],
          message: `another server is already named "${s.name}"`,
        });
      seen.add(key);
    });
  });

export const manifestSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/i, 'letters, digits, dot, dash or underscore (max 63)'),
  version: z.string().min(1),
  description: z.string().optional(),
  role: z.enum(['orchestrator', 'worker', 'agent']).optional(),
  artifacts: z.array(artifactSchema).default([]),
  network: z.strictObject({ internal_port: z.number().int().min(1).max(65535).optional() }).optional(),
  inference: z.strictObject({
    transport: z.enum(['http', 'process', 'embedded']).default('http'),
    model: z.string().min(1).default('rehearsal'),
    driver: z.strictObject({ artifact: z.string().min(1) }),
    max_tokens: z.number().int().positive().optional(),
    max_turns: z.number().int().positive().optional(),
    system_prompt: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Spend ceiling for one task: total tokens, and US dollars where the price table knows the model. */
    budget: z
      .strictObject({ max_tokens: z.number().int().positive().optional(), max_usd: z.number().positive().optional() })
      .optional(),
    rehearsal: rehearsalSchema.optional(),
    harness: harnessSchema.optional(),
    input_timeout: duration.optional(),
  }),
  lifecycle: z
    .strictObject({
      task_acceptance: z.enum(['queue', 'single', 'none']).default('queue'),
      after_task: z.enum(['sleep', 'exit']).default('sleep'),
      queue_depth: z.number().int().nonnegative().default(8),
      idle_timeout: duration.optional(),
    })
    .optional(),
  exports: z
    .strictObject({
      peer_tasks: z.strictObject({ accept: z.boolean().default(false) }).optional(),
      /** The A2A methods the door serves (1.0 names, or the older 0.3 names, docs/door.md); absent serves all. */
      methods: z
        .array(z.string().refine(isServableMethod, 'not an A2A method name (e.g. SendMessage, GetTask, or tasks/send)'))
        .optional(),
    })
    .optional(),
  capabilities: z
    .strictObject({
      network: z.strictObject({ allow: z.array(z.string().min(1)).default([]) }).optional(),
      shell: z.strictObject({ allow: z.array(z.string().min(1)).default([]) }).optional(),
      mcp: mcpSchema.optional(),
    })
    .optional(),
  skills: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        name: z.string().min(1),
        description: z.string().default(''),
        tags: z.array(z.string()).default([]),
        examples: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /** Input contract (JSON Schema) for the data part of a task's message. */
  accepts: z.record(z.string(), z.unknown()).optional(),
  /** Output contract (JSON Schema) of the answer: asked of the model, checked, sent as a data part. */
  responds: z.record(z.string(), z.unknown()).optional(),
});

/** A manifest as written (after ${VAR} interpolation), with defaults applied. */
export type Manifest = z.infer<typeof manifestSchema>;
export type RehearsalTurn = z.infer<typeof rehearsalTurnSchema>;
export type RehearsalArtifact = z.infer<typeof rehearsalArtifactSchema>;
export type RehearsalPart = z.infer<typeof rehearsalPartSchema>;
export type RehearsalMcpCall = z.infer<typeof rehearsalMcpCallSchema>;
export type HarnessSpec = z.infer<typeof harnessSchema>;
export type McpServerSpec = z.infer<typeof mcpServerSchema>;

/** Built-in driver artifacts. */
export const DRIVER_ARTIFACTS = {
  'capsule/driver-rehearsal': 'rehearsal',
  'murmur/driver-anthropic': 'anthropic',
  'murmur/driver-openai': 'openai',
  'murmur/driver-deepseek': 'deepseek',
  'capsule/driver-openai-compatible': 'openai-compatible',
  'capsule/driver-process': 'process',
} as const;
export type DriverKind = (typeof DRIVER_ARTIFACTS)[keyof typeof DRIVER_ARTIFACTS];

/** Parses a duration (number = ms, or "30s"/"10m"/…) into milliseconds. */
export function durationMs(d: number | string | undefined, fallback: number): number {
  if (d === undefined) return fallback;
  if (typeof d === 'number') return d;
  const m = /^(\d+)(ms|s|m|h)$/.exec(d);
  if (!m) return fallback;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
}
