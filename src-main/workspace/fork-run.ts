import type { Task } from '../../src-shared/a2a';
import type { PreparedFork } from '../recording';
import type { FormationResolver, Session, SessionOptions } from '../runtime';

// Starts a fork: a new session of the recorded capsule (on a port of its own, so it never takes
// the port the formation's capsule is pinned to), sent the fork's message. Used by the Studio's
// "Fork from here" and by `capsule fork`.

export interface ForkLaunchDeps {
  startSession(opts: SessionOptions): Promise<Session>;
  recordsRoot?: string;
  env: Record<string, string | undefined>;
  /** How the fork's delegations reach the other capsules by name (the formation it ran in). */
  formation?: FormationResolver;
}

export interface LaunchedFork {
  session: Session;
  taskId: string;
  /** Resolves with the task once it is terminal or waits for input. */
  settled: Promise<Task>;
}

export async function launchFork(fork: PreparedFork, deps: ForkLaunchDeps): Promise<LaunchedFork> {
  const session = await deps.startSession({
    manifestPath: fork.manifestPath,
    manifest: fork.manifest,
    secrets: fork.secrets,
    env: deps.env,
    port: 0,
    ...(deps.recordsRoot ? { recordsRoot: deps.recordsRoot } : {}),
    ...(deps.formation ? { formation: deps.formation } : {}),
    fork: fork.plan,
  });
  try {
    // The earlier tasks of the recorded conversation go first, one after another, so the fork's
    // task finds the same conversation in its context.
    for (const message of fork.earlier) {
      const done = await session.acceptMessage({ message, method: 'Fork' }).settled;
      if (done.status.state !== 'TASK_STATE_COMPLETED')
        throw new Error(
          `replaying an earlier task of the conversation ended ${done.status.state.replace('TASK_STATE_', '')}`,
        );
    }
    const accepted = session.acceptMessage({ message: fork.message, method: 'Fork' });
    return { session, taskId: accepted.task.id, settled: accepted.settled };
  } catch (err) {
    await session.end('the fork could not start');
    throw err;
  }
}
