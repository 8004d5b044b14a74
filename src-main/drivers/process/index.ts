// The process transport: a harness CLI per task (see README.md for the conventions).
export { createProcessExecutor, KILLED_NOTE, type ProcessExecutor, type ProcessExecutorOptions } from './executor';
export { startHarness, harnessArgs, SESSION_LINE, type HarnessRun, type HarnessResult, type HarnessExit } from './harness';
