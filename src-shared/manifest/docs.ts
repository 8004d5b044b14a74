// What each manifest key means, for the YAML editor's hover and completion. Keyed by the outline's
// path form ("[]" for any list element); a test checks that every key of the schema has one line
// here and that no line names a key the schema lacks.

const TURN = 'inference.rehearsal.replies[].turns[]';
const ARTIFACT = `${TURN}.artifacts[]`;
const PART = `${ARTIFACT}.parts[]`;

/** The keys of one scripted part (an artifact's, or a recorded MCP result's), under `at`. */
const partDocs = (at: string): Record<string, string> => ({
  [`${at}.text`]: 'A text part.',
  [`${at}.data`]: 'A data part: any JSON value.',
  [`${at}.bytes`]: "A file part: the file's content as base64.",
  [`${at}.url`]: 'A file part by reference: its URL.',
  [`${at}.media_type`]: 'The media type, e.g. "application/pdf".',
  [`${at}.filename`]: 'The file name shown for a file part.',
  [`${at}.metadata`]: 'Free metadata sent with the part.',
});

export const MANIFEST_DOCS: Readonly<Record<string, string>> = {
  name: "The capsule's name: letters, digits, dot, dash or underscore (at most 63). Other capsules and the gateway address it by this name.",
  version: 'The version of this capsule, as text (quote it: "0.1.0").',
  description: 'One line on what the capsule does; shown on its agent card and in the Studio.',
  role: 'orchestrator (hands work to others), worker (takes work from them) or agent (both or neither).',
  artifacts: 'The artifacts the capsule uses (drivers, tools, other capsules), each by name.',
  'artifacts[].name': 'The artifact\'s name, e.g. "murmur/driver-anthropic".',
  'artifacts[].version': 'The version of the artifact wanted, as text.',
  'artifacts[].runtime': 'What the artifact is: driver, tool or capsule.',
  'artifacts[].gateway': 'How to reach the artifact over the network: its endpoint and key.',
  'artifacts[].gateway.endpoint': 'The artifact\'s URL, e.g. "https://api.example.com/v1".',
  'artifacts[].gateway.api_key':
    'The key it takes, always as a reference such as "${API_KEY}" (never the secret itself).',
  network: "The capsule's own network settings.",
  'network.internal_port': 'The port the door listens on inside the capsule (1–65535); absent picks a free one.',
  inference: 'How the capsule thinks: the driver, the model and their limits.',
  'inference.transport': 'How the driver is reached: http (an API), process (a harness CLI) or embedded.',
  'inference.model':
    'The model name the driver asks for (e.g. "claude-sonnet-4-5"); "rehearsal" for the offline driver.',
  'inference.driver': 'The driver that runs the model.',
  'inference.driver.artifact':
    'The driver artifact: one of the built-in drivers (capsule/driver-rehearsal runs offline).',
  'inference.max_tokens': 'The most tokens one model answer may use.',
  'inference.max_turns': 'The most model turns one task may take before it fails.',
  'inference.system_prompt': 'The instructions given to the model before every task.',
  'inference.temperature': 'Sampling temperature, from 0 (steady) to 2 (varied).',
  'inference.budget': 'Spend ceiling for one task; the task fails once it is reached.',
  'inference.budget.max_tokens': 'The most tokens (in and out, all turns) one task may spend.',
  'inference.budget.max_usd': 'The most US dollars one task may spend, where the price table knows the model.',
  'inference.rehearsal': 'The script the rehearsal driver plays instead of a model (offline, no key).',
  'inference.rehearsal.delay_ms': 'A pause before every scripted turn, in milliseconds.',
  'inference.rehearsal.recorded_from':
    'The session this script was made from; a task it has no reply for is traced as a divergence.',
  'inference.rehearsal.mcp_calls':
    'Recorded MCP tool calls answered in place of the servers (no server is started); a script made from a recording has them.',
  'inference.rehearsal.mcp_calls[].server': 'The MCP server the call went to (its name in capabilities.mcp.servers).',
  'inference.rehearsal.mcp_calls[].tool': "The server's own name of the tool.",
  'inference.rehearsal.mcp_calls[].arguments':
    'The arguments of the call; a call with other arguments has no recorded answer.',
  'inference.rehearsal.mcp_calls[].ok':
    'false when the call failed (result is then what the model read of the failure).',
  'inference.rehearsal.mcp_calls[].result': 'The text the model read.',
  'inference.rehearsal.mcp_calls[].parts':
    'Images, audio or files of the result, each with exactly one of bytes (base64) or url.',
  ...partDocs('inference.rehearsal.mcp_calls[].parts[]'),
  'inference.rehearsal.replies': 'Scripted replies, tried in order; the first whose conditions match the task plays.',
  'inference.rehearsal.replies[].when':
    'A case-insensitive piece of the task text, or /regex/; absent matches any task.',
  'inference.rehearsal.replies[].message_id': "Matches a task whose first message's messageId starts with this.",
  'inference.rehearsal.replies[].metadata':
    "Matches a task whose first message's metadata has every key given here with this value.",
  'inference.rehearsal.replies[].turns': 'The turns of this reply, played one after another.',
  [`${TURN}.text`]: "The turn's answer text; {{task}} is the task text, {{tool_results}} the previous turn's results.",
  [`${TURN}.data`]: "A structured answer (any JSON value), checked against `responds` as a model's would be.",
  [`${TURN}.artifacts`]: 'Artifacts sent while the turn works, in order.',
  [`${ARTIFACT}.id`]: 'The artifactId; chunks of one artifact share it.',
  [`${ARTIFACT}.name`]: "The artifact's name.",
  [`${ARTIFACT}.description`]: 'What the artifact holds.',
  [`${ARTIFACT}.parts`]: "The artifact's parts (at least one).",
  ...partDocs(PART),
  [`${ARTIFACT}.append`]: 'true: these parts extend the artifact with the same id sent before.',
  [`${ARTIFACT}.last_chunk`]: 'false when more chunks of this artifact follow (true by default).',
  [`${ARTIFACT}.delay_ms`]: 'A pause before this artifact goes out, in milliseconds.',
  [`${ARTIFACT}.metadata`]: 'Free metadata sent with the artifact.',
  [`${TURN}.answer_as`]:
    'task (default) or message: a blocking SendMessage is answered with a Message instead of the Task.',
  [`${TURN}.pass_tool_parts`]:
    "true: the answer carries the images, audio and files of the previous turn's tool results (an MCP tool's) as parts.",
  [`${TURN}.failed_text`]:
    "Used instead of `text` when every tool call of the previous turn failed. When those were all the task's delegations, the task then fails, its status naming each failed delegation.",
  [`${TURN}.partial_text`]:
    'Used instead of `text` when some, not all, tool calls of the previous turn failed; the task completes.',
  [`${TURN}.tool_calls`]: 'Tool calls the turn makes (delegations, shell commands).',
  [`${TURN}.tool_calls[].name`]: 'The tool to call.',
  [`${TURN}.tool_calls[].arguments`]: "The call's arguments, a map.",
  [`${TURN}.error`]: 'The turn fails with this error message.',
  [`${TURN}.hang`]: 'true: the turn never answers (to rehearse timeouts and cancel).',
  [`${TURN}.delay_ms`]: 'How long this turn takes, in milliseconds.',
  [`${TURN}.tokens_in`]: 'Input tokens the turn reports.',
  [`${TURN}.tokens_out`]: 'Output tokens the turn reports.',
  [`${TURN}.stop`]: 'Why the turn stopped: end_turn, max_tokens or tool_use.',
  [`${TURN}.stream`]: "Streams text fragments before the turn's result (load for the live views).",
  [`${TURN}.stream.frames`]: 'How many fragments to stream.',
  [`${TURN}.stream.per_second`]: 'How many fragments per second.',
  [`${TURN}.given`]: 'In a script made from a recording: the tool results this turn followed there.',
  'inference.harness': 'A harness CLI run as the model (transport: process).',
  'inference.harness.command': 'The program to run.',
  'inference.harness.args': 'Its arguments; {prompt} is replaced by the prompt when prompt is arg.',
  'inference.harness.prompt': 'How the prompt goes in: arg ({prompt} in args) or stdin (default).',
  'inference.harness.interrupt': 'How to interrupt it: sigint (default), none (killed at once) or { stdin: bytes }.',
  'inference.harness.interrupt.stdin': 'Bytes written to stdin to interrupt, e.g. "\\u0003".',
  'inference.harness.grace_ms': 'How long it may take to stop after an interrupt, in milliseconds (default 10000).',
  'inference.harness.resume_args': 'Arguments that continue an earlier conversation.',
  'inference.harness.env': 'Environment variables for the program; values may be ${VAR} references.',
  'inference.input_timeout': 'How long a task waits for input it asked for: 500ms, 30s, 10m, 1h or milliseconds.',
  lifecycle: 'How the capsule takes tasks and what it does between them.',
  'lifecycle.task_acceptance':
    'queue (default: tasks wait their turn), single (one at a time, others refused) or none.',
  'lifecycle.after_task': 'sleep (default: wait for the next task) or exit (the session ends).',
  'lifecycle.queue_depth': 'How many tasks may wait in the queue (default 8).',
  'lifecycle.idle_timeout': 'The session ends after this long without a task: 30s, 10m, 1h or milliseconds.',
  exports: 'What the capsule offers others.',
  'exports.peer_tasks': 'Whether other capsules may hand this one tasks.',
  'exports.peer_tasks.accept': 'true: other capsules may send it tasks (an edge in the Studio sets this).',
  'exports.methods': 'The A2A methods the door serves (e.g. SendMessage, GetTask); absent serves all.',
  capabilities: 'What the capsule may reach.',
  'capabilities.network': 'Outbound network access.',
  'capabilities.network.allow':
    'Addresses it may call: host:port, host, *.example.com or http(s)://host[:port][/path].',
  'capabilities.shell': 'Shell commands it may run.',
  'capabilities.shell.allow': 'The commands allowed, by name.',
  'capabilities.mcp': 'MCP servers whose tools the capsule may use.',
  'capabilities.mcp.servers': 'The servers: each a local process (command) or a remote URL, with the tools allowed.',
  'capabilities.mcp.servers[].name':
    'The server\'s name (letters, digits, dashes); the model sees its tools as "<name>__<tool>".',
  'capabilities.mcp.servers[].command': 'A local server: the program started for the session, e.g. "node" or "uvx".',
  'capabilities.mcp.servers[].args': "A local server: the program's arguments.",
  'capabilities.mcp.servers[].env': 'A local server: its whole environment besides PATH, e.g. { TOKEN: "${TOKEN}" }.',
  'capabilities.mcp.servers[].cwd': "A local server: where it runs, relative to this file's folder.",
  'capabilities.mcp.servers[].url':
    'A remote server over Streamable HTTP; the URL must also be in capabilities.network.allow.',
  'capabilities.mcp.servers[].headers':
    'A remote server: HTTP headers sent with every request, e.g. { Authorization: "Bearer ${TOKEN}" }.',
  'capabilities.mcp.servers[].tools':
    "The server's tools the model may call, by the server's names; all when absent, none when empty.",
  'capabilities.mcp.servers[].timeout':
    'How long one tool call may take before it fails: 500ms, 30s, 10m (default 60s).',
  skills: 'The skills its agent card lists.',
  'skills[].id': "The skill's id.",
  'skills[].name': "The skill's name.",
  'skills[].description': 'What the skill does.',
  'skills[].tags': 'Words to find the skill by.',
  'skills[].examples': 'Example requests.',
  accepts: "Input contract: a JSON Schema for the data part of a task's message.",
  responds: 'Output contract: a JSON Schema the answer follows, sent as a data part.',
};
