import { expect, it } from 'vitest';
import type { SessionSummary } from '../trace';
import { sessionItem } from './traces';

// The sessions browser learns from each session's summary how many lines of its trace the index
// could not read, by why; a session read whole carries no such field.

const summary = (lines: Partial<SessionSummary>): SessionSummary =>
  ({
    id: 'ses_1',
    capsule: 'writer',
    status: 'ended',
    startedAt: 0,
    endedAt: 1,
    endReason: null,
    driver: null,
    model: null,
    parentId: null,
    forkedFrom: null,
    tasks: 0,
    tokensIn: 0,
    tokensOut: 0,
    events: 3,
    badLines: 0,
    deepLines: 0,
    longLines: 0,
    foreignLines: 0,
    ...lines,
  }) as SessionSummary;

it('carries the skipped lines of a session whose trace had some', () => {
  expect(sessionItem(summary({ badLines: 2, longLines: 1 })).skipped).toEqual({ bad: 2, deep: 0, long: 1, foreign: 0 });
});

it('carries none for a trace read whole', () => {
  expect('skipped' in sessionItem(summary({}))).toBe(false);
});
