export {
  openSse,
  DEFAULT_KEEPALIVE_MS,
  DEFAULT_STREAM_LIFE_MS,
  type SseStream,
  type SseOptions,
  type SseCloseReason,
} from './sse';
export {
  followTask,
  capWithRealState,
  closesStream,
  statusEventOf,
  type FollowOptions,
  type FollowedSession,
} from './task-stream';
export { watchSession, parseWatchParams, type WatchEvent, type WatchFrom, type WatchedSession } from './watch';
export { FRAMES_EXTENSION, frameOf, wantsFrames, type Frame } from './frames';
export { readSse, type SseEvent } from './sse-reader';
export { configureStreams, openStreams, liveStreamsPlugin, type LiveSettings } from './live';
