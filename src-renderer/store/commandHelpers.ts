import type { FormationView } from '../../src-shared/contract';
import { describeError } from './client';
import { emptyBatch, foldBatch } from './fold';
import type { StudioState } from './types';

// Helpers the formation's actions share, loaded with the window or on first call alike.

/**
 * Runs a command, turning a failure into a notice; answers whether it worked. `what` names the
 * command in the notice; null when the core's message already says it ("Cannot launch writer: …").
 */
export const attempter =
  (get: () => StudioState) =>
  async (what: string | null, run: () => Promise<unknown>): Promise<boolean> => {
    try {
      await run();
      return true;
    } catch (err) {
      get().notify('error', what === null ? describeError(err) : `${what}: ${describeError(err)}`);
      return false;
    }
  };

/** Applies a whole view a command answered: it counts as its version of formation.changed. */
export const viewApplier =
  (set: (fold: (s: StudioState) => Partial<StudioState>) => void) =>
  (view: FormationView): void =>
    set((s) =>
      foldBatch(s, {
        ...emptyBatch(),
        formations: [{ change: { version: view.version ?? 0, dir: view.dir, full: view }, after: 0 }],
      }),
    );
