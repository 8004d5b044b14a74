import { CoreError, type CommandArgs, type CommandName, type StepView } from '../../src-shared/contract';
import { testResultView, TestRunCanceled } from '../regression';
import { publishVersion } from './publish';
import type { Handlers, StudioContext } from '../workspace';
import { listSteps, saveStep, serialized } from './history';
import { compareVersions } from './compare';
import { restoreVersion } from './restore';
import { readPublished } from './published';

// The Studio's history: every command that saves a workspace file becomes a step named after
// what the user did, and the History panel's commands (list, diff, restore) read it back.

type HistoryCommand = 'history.list' | 'history.diff' | 'history.restore' | 'history.publish';

/** The commands that save workspace files, and the step message each one leaves in the history. */
const SAVES: { [K in CommandName]?: (args: CommandArgs<K>) => string } = {
  'capsule.add': (a) => `Add a ${a.kind}${a.name ? ` capsule ${a.name}` : ''}`,
  'capsule.duplicate': (a) => `Duplicate ${a.id}`,
  'capsule.move': (a) => `Move ${a.id}`,
  'capsule.remove': (a) => `Remove ${a.id}${a.deleteManifest ? ' and its manifest' : ''}`,
  'edge.connect': (a) => `Connect ${a.source} → ${a.target}`,
  'edge.disconnect': (a) => `Disconnect ${a.source} → ${a.target}`,
  'manifest.write': (a) => `Edit ${a.id}`,
  'remote.add': (a) => `Add remote agent ${a.url}`,
  'remote.move': (a) => `Move ${a.id}`,
  'remote.remove': (a) => `Remove remote agent ${a.id}`,
  'tests.saveFromSession': (a) => `Save test ${a.name}`,
};

const view = (s: {
  version: string;
  short: string;
  message: string;
  author: string;
  time: number;
  capsules: string[];
}): StepView => ({ ...s });

export interface RecordedSaves {
  handlers: Handlers;
  /** Settles once every step asked for so far is written (the core waits for it before it ends). */
  flush(): Promise<void>;
}

/**
 * Wraps the saving handlers so each save also records a step. The step is written after the save
 * answers (a drag stays quick), in order, and history commands wait for the steps still being
 * written (see `serialized`). A step that cannot be written (a damaged repository, a full disk)
 * never undoes the save: the user is told in a notice.
 */
export function recordSaves(ctx: StudioContext, handlers: Handlers): RecordedSaves {
  const wrapped = { ...handlers } as Record<string, (args: unknown) => unknown>;
  const pending = new Set<Promise<unknown>>();
  for (const [cmd, message] of Object.entries(SAVES) as [CommandName, (args: unknown) => string][]) {
    const inner = wrapped[cmd];
    wrapped[cmd] = async (args) => {
      const out = await inner(args);
      const dir = ctx.current()?.dir;
      if (dir) {
        const p = recordStep(ctx, dir, message(args));
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }
      return out;
    };
  }
  return {
    handlers: wrapped as Handlers,
    flush: async () => {
      await Promise.all([...pending]);
    },
  };
}

/** The user keeps no history (CAPSULE_HISTORY=off in the Studio's environment). */
export const historyOff = (ctx: StudioContext): boolean => ctx.config.env?.CAPSULE_HISTORY === 'off';

export async function recordStep(ctx: StudioContext, dir: string, message: string): Promise<StepView | undefined> {
  if (historyOff(ctx)) return undefined;
  try {
    const { step, created } = await saveStep(dir, message);
    if (created)
      ctx.emit('notice.raised', {
        level: 'info',
        message: `This workspace now keeps its history: every save is a step in a git repository the Studio created in ${dir} (.git).`,
      });
    if (step) ctx.emit('history.changed', { step: view(step) });
    return step && view(step);
  } catch (err) {
    ctx.emit('notice.raised', {
      level: 'warning',
      message: `Saved, but the step could not be added to the history: ${(err as Error).message}`,
    });
    return undefined;
  }
}

export function historyHandlers(ctx: StudioContext): Pick<Handlers, HistoryCommand> {
  let publishing = false;
  return {
    async 'history.list'(args) {
      const dir = ctx.workspace().dir;
      const steps = (await serialized(dir, () => listSteps(dir, args?.limit))).map(view);
      return { started: steps.length > 0, steps, published: await readPublished(dir) };
    },
    'history.diff'({ from, to }) {
      const dir = ctx.workspace().dir;
      return serialized(dir, () => compareVersions(dir, from, to));
    },
    async 'history.restore'({ version }) {
      const dir = ctx.workspace().dir;
      const step = view(await restoreVersion(dir, version));
      // The watcher would notice the files too; telling clients now keeps the canvas in step.
      if (ctx.workspace().reload()) ctx.changed();
      ctx.emit('history.changed', { step });
      return step;
    },
    async 'history.publish'({ version, override }, call) {
      const dir = ctx.workspace().dir;
      if (historyOff(ctx))
        throw new CoreError(
          'invalid_input',
          'This Studio keeps no history (CAPSULE_HISTORY=off), and a published version is a step of the history.',
        );
      if (publishing) throw new CoreError('conflict', 'A publish is running (its tests first); wait for it to finish.');
      publishing = true;
      try {
        let out: Awaited<ReturnType<typeof publishVersion>>;
        try {
          out = await publishVersion(dir, {
            ...(version ? { version } : {}),
            ...(override ? { override } : {}),
            ...(call?.signal ? { signal: call.signal } : {}),
          });
        } catch (err) {
          // Esc in the Studio: the tests stop and nothing is published (the draft may be saved as a step).
          if (err instanceof TestRunCanceled)
            throw new CoreError('canceled', 'The publish was canceled while its tests ran; nothing was published.');
          throw err;
        }
        const step = out.step && view(out.step);
        if (step) ctx.emit('history.changed', { step });
        return { published: out.published, results: out.results.map(testResultView), ...(step ? { step } : {}) };
      } finally {
        publishing = false;
      }
    },
  };
}
