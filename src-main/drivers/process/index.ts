// The process transport: a harness CLI per task (see README.md for the conventions). The executor
// that runs tasks through it is the runtime's (runtime/process-executor.ts).
export {
  startHarness,
  harnessArgs,
  SESSION_LINE,
  type HarnessRun,
  type HarnessResult,
  type HarnessExit,
  type HarnessStart,
} from './harness';
