import type { Task } from './types';

/** The text a task answered with: its artifacts' text parts, else its status message. */
export function answerText(task: Task): string {
  const fromArtifacts = (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).filter(Boolean);
  if (fromArtifacts.length > 0) return fromArtifacts.join('\n');
  return (task.status.message?.parts ?? [])
    .map((p) => p.text ?? '')
    .filter(Boolean)
    .join('\n');
}
