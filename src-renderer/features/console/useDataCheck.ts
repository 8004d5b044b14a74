import { useEffect, useState } from 'react';
import type { DataProblem } from '../../../src-shared/contract';
import { describeError, invoke } from '../../store';

/** What the data field says about its text: not JSON, or the capsule's contract's problems. */
export interface DataState {
  /** The parsed value when the text is JSON. */
  value?: unknown;
  /** Why the text is not JSON. */
  syntax?: string;
  /** The `accepts` schema's problems (empty when it fits or there is none). */
  problems: DataProblem[];
  /** Whether the capsule declares an input contract. */
  contract?: boolean;
  checking: boolean;
}

const CHECK_DELAY_MS = 250;

export function parseData(text: string): { value?: unknown; syntax?: string } {
  if (!text.trim()) return {};
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { syntax: `not JSON: ${(err as Error).message}` };
  }
}

/**
 * Checks the data field as the user types: JSON first, then, a moment after the last key, the
 * capsule's `accepts` schema in the core (the checker its door uses; the page runs no eval, so
 * the schema is not compiled here).
 */
export function useDataCheck(capsuleId: string | null, text: string, enabled: boolean): DataState {
  const { value, syntax } = parseData(text);
  const [checked, setChecked] = useState<{ text: string; problems: DataProblem[]; contract?: boolean }>({
    text: '',
    problems: [],
  });
  const pending = enabled && !!capsuleId && value !== undefined && checked.text !== text;
  useEffect(() => {
    if (!enabled || !capsuleId || value === undefined) return;
    let live = true;
    const timer = setTimeout(() => {
      invoke('task.checkData', { capsuleId, data: value })
        .then((r) => live && setChecked({ text, problems: r.problems, contract: r.contract }))
        .catch((err: unknown) => live && setChecked({ text, problems: [{ field: '', message: describeError(err) }] }));
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // value follows text: the check runs again when the text, the capsule or the switch changes.
  }, [capsuleId, text, enabled]);
  const current = checked.text === text ? checked : { problems: [], contract: checked.contract };
  return {
    value,
    syntax,
    problems: value === undefined ? [] : current.problems,
    contract: current.contract,
    checking: pending,
  };
}
