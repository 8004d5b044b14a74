// Manifests the palette creates. Rehearsal driver, so a new capsule runs offline at once; the
// comments tell the user where the real-model settings go.

export function orchestratorTemplate(name: string): string {
  return `# ${name}: an orchestrator capsule. Draw an edge to a worker to let it delegate there.
name: ${name}
version: "0.1.0"
role: orchestrator
description: Splits a request between its workers and summarises their answers.

inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  # The rehearsal driver answers from this script, offline and deterministically.
  # For a real model use e.g. murmur/driver-anthropic with an artifacts entry and an api key.
  rehearsal:
    replies:
      - turns:
          - text: "I would delegate this to my workers once they are connected."

lifecycle:
  task_acceptance: queue
  after_task: sleep
`;
}

export function workerTemplate(name: string): string {
  return `# ${name}: a worker capsule. An edge from an orchestrator lets it take that orchestrator's tasks.
name: ${name}
version: "0.1.0"
role: worker
description: Does one kind of work for its orchestrator.

inference:
  transport: embedded
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
  rehearsal:
    delay_ms: 200
    replies:
      - turns:
          - text: "${name} has done the work."

lifecycle:
  task_acceptance: queue
  after_task: sleep
`;
}
