export { isoNow } from './line-head';
export { createTraceWriter, maskOpenSecrets, maskSecrets, type SerializedField, type TraceWriter } from './writer';
export { createStreamMask, type StreamMask } from './stream-mask';
export { createTraceStore, type TraceStore, type TraceStoreOptions, type IngestReport, type SyncReport } from './store';
export { builtWorkerFile, createTraceIndexer, type TraceIndexer, type IndexProgress } from './indexer';
export type {
  SessionSummary,
  SessionFamily,
  TaskSummary,
  SessionQuery,
  EventQuery,
  EventPage,
  IndexedEvent,
  SearchHit,
  TraceQueries,
} from './queries';
export {
  readTraceLines,
  readTraceLinesAsync,
  readRawTraceLines,
  streamTraceLines,
  streamRawTraceLines,
  type ReadLine,
  type RawTraceLine,
  type TraceChunk,
  type TraceLine,
} from './jsonl';
export {
  MAX_TRACE_LINE_BYTES,
  MAX_TRACE_LINE_DEPTH,
  describeSkipped,
  nestedDeeperThan,
  noSkippedLines,
  parseTraceLine,
  sessionGate,
  type SkippedLines,
} from './line';
export { createMasker } from './mask';
export { compactOf, compactTask, expandTask, taskOfCompact, type CompactTask } from './final-task';
export { countTraceLines, readTraceLinesAt, type TraceSlice } from './line-index';
export { findTraceFiles, findTraceFilesAsync, findTraceOfSession } from './records';
export { createLineAppender, type LineAppender } from './appender';
export { liveSinceOf, liveSinceOfAsync, taskInterrupted } from './outcome';
export {
  listRunningSessions,
  listRunningSessionsAsync,
  writeRunningFile,
  removeRunningFile,
  pidAlive,
  hostAlive,
  processStart,
  type RunningSession,
  type RunningFile,
} from './running';
export {
  AddressError,
  resolveAddress,
  resolveRunningSession,
  resolveRecordedSession,
  isPathAddress,
  sessionIdOfTrace,
} from './addresses';
export { SLICE_MS, sliceClock, yieldToLoop, type SliceClock } from './slices';
