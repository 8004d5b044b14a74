// Manifest text for a capsule dropped onto the canvas: runs on the rehearsal driver (no key, no
// network), commented so a person can see what to change to make it real. The orchestrator hands
// whatever it is sent to the workers its edges name: a newcomer's first message, whatever its words,
// shows the edge they just drew at work.

export interface ManifestTemplateOptions {
  /** Capsules (names or URLs) an orchestrator delegates to; "*" (every worker it may reach, i.e. its edges) when none is given. */
  delegateTo?: string[];
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

function orchestrator(name: string, targets: string[]): string {
  const calls = targets
    .map((to) =>
      [
        `              - name: delegate_task`,
        `                arguments:`,
        `                  to: ${yamlString(to)}`,
        `                  text: "{{task}}"`,
      ].join('\n'),
    )
    .join('\n');
  return `# Capsule manifest (murmur.yaml format). This orchestrator hands work to worker capsules.
name: ${name}
version: "0.1.0"
description: Splits a task and delegates it to worker capsules.
role: orchestrator

inference:
  transport: embedded
  # The rehearsal driver answers from the script below: offline, no API key.
  # For a real model, set for example: model: claude-sonnet-5 and driver.artifact: murmur/driver-anthropic
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  max_turns: 8
  rehearsal:
    replies:
      # Every message is delegated (no "when:", so this reply matches any text); the delegate_task
      # tool sends it to a peer (a capsule of this formation by name, an agent's URL, or "*": every
      # worker this capsule may reach, i.e. each worker its edges point at) and returns the peer's
      # answer. {{task}} is the task's text; {{tool_results}} one line per delegation's outcome.
      # To answer some messages directly, put a reply with a "when:" (a word or /regex/) above this one.
      - turns:
          - tool_calls:
${calls}
          - text: |-
              The workers answered:
              {{tool_results}}
            # Used instead when every delegation failed: the answer never claims work that was not done.
            failed_text: |-
              No worker could do it:
              {{tool_results}}

lifecycle:
  task_acceptance: queue
  after_task: sleep

capabilities:
  network:
    # Where this capsule may connect. Drawing an edge to a worker in the Studio adds its address.
    allow: []
`;
}

function worker(name: string): string {
  return `# Capsule manifest (murmur.yaml format). This worker takes tasks from people and other capsules.
name: ${name}
version: "0.1.0"
description: Answers the tasks it is given.
role: worker

inference:
  transport: embedded
  # The rehearsal driver with no script acknowledges each task by quoting its text: offline, no key.
  # For a real model, set for example: model: claude-sonnet-5 and driver.artifact: murmur/driver-anthropic
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    delay_ms: 300

lifecycle:
  task_acceptance: queue
  after_task: sleep

exports:
  peer_tasks:
    # Drawing an edge from an orchestrator to this worker turns this on.
    accept: false
`;
}

/** YAML text of a new capsule's manifest on the rehearsal driver. */
export function renderManifestTemplate(
  kind: 'orchestrator' | 'worker',
  name: string,
  options: ManifestTemplateOptions = {},
): string {
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/i.test(name))
    throw new Error(`not a capsule name: letters, digits, dot, dash or underscore (max 63)`);
  if (kind === 'worker') return worker(name);
  return orchestrator(name, options.delegateTo?.length ? options.delegateTo : ['*']);
}
