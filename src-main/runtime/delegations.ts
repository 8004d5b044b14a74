import type { ChatMessage, ToolCall } from '../drivers';
import type { TaskOutcome } from './executor';
import type { Tool } from './tool-types';

// An orchestrator's answer is only as true as its delegations. The loop tallies every delegation
// a task made; when all of them failed, the outcome says so: the task fails when the model gave no
// answer of its own (nothing, or only the script's report that nothing could be done), and
// otherwise completes with its final status message saying that every delegation failed.

/** Longest one delegation's error is quoted in the status message (the trace keeps it whole). */
const ERROR_QUOTE_CHARS = 300;
/** Failed delegations named one by one in the status message; the rest are counted. */
const NAMED = 8;

interface Failed {
  to: string;
  error: string;
}

export class DelegationTally {
  private made = 0;
  private readonly failed: Failed[] = [];
  private failures = 0;

  /** One turn's calls and their results (in call order, as runToolCalls returns them). */
  note(calls: readonly ToolCall[], results: readonly ChatMessage[], tools: readonly Tool[]): void {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      if (!tools.find((t) => t.spec.name === call.name)?.delegates) continue;
      this.made++;
      const result = results[i];
      if (result?.role !== 'tool' || !result.isError) continue;
      this.failures++;
      // A "*" left unexpanded reached nobody: the tool is named rather than the asterisk.
      const to =
        typeof call.arguments.to === 'string' && call.arguments.to && call.arguments.to !== '*'
          ? call.arguments.to
          : call.name;
      if (this.failed.length < NAMED) this.failed.push({ to, error: result.content });
    }
  }

  /** Every delegation the task made failed (and it made at least one). */
  get allFailed(): boolean {
    return this.made > 0 && this.failures === this.made;
  }

  private describe(): string {
    const quote = (s: string) => (s.length > ERROR_QUOTE_CHARS ? `${s.slice(0, ERROR_QUOTE_CHARS)}…` : s);
    const named = this.failed.map((f) => `${f.to}: ${quote(f.error)}`).join('; ');
    const more = this.failures > this.failed.length ? `; and ${this.failures - this.failed.length} more` : '';
    return `every delegation failed (${this.failures} of ${this.made}): ${named}${more}`;
  }

  /** The outcome as it may be told: unchanged unless every delegation failed. */
  judge(outcome: TaskOutcome, reportsFailure: boolean): TaskOutcome {
    if (!outcome.ok || !this.allFailed) return outcome;
    const own =
      !reportsFailure && (outcome.answer.trim() !== '' || outcome.data !== undefined || !!outcome.parts?.length);
    // The script's report of the failures is in the trace's inference line; the status names them.
    return own
      ? { ...outcome, note: this.describe() }
      : { ok: false, cause: 'delegations_failed', message: this.describe() };
  }
}
