import type { StateCreator } from 'zustand';
import type { ConsoleSlice } from './state/console';
import type { FlowSlice } from './state/flow';
import type { FormationSlice } from './state/formation';
import type { GraphSlice } from './state/graph';
import type { ManifestSlice } from './state/manifest';
import type { NoticeSlice } from './state/notice';
import type { TasksSlice } from './state/tasks';
import type { TracesSlice } from './state/traces';
import type { SessionsSlice } from './state/sessions';
import type { InspectorSlice } from './state/inspector';
import type { ReplaySlice } from './state/replay';
import type { BreakpointsSlice } from './state/breakpoints';
import type { ForkSlice } from './state/fork';
import type { RuntimesSlice } from './state/runtimes';
import type { ToolServersSlice } from './state/toolServers';
import type { ExposeSlice } from './state/expose';

// The whole store's type, made of the slices' shapes (state/*.ts). Slice files import this and
// never the other way round, so the store's files import one way only.

/** The one bound store: every feature's slice side by side. */
export type StudioState = FormationSlice &
  GraphSlice &
  ManifestSlice &
  ConsoleSlice &
  TasksSlice &
  TracesSlice &
  NoticeSlice &
  SessionsSlice &
  InspectorSlice &
  FlowSlice &
  ReplaySlice &
  BreakpointsSlice &
  ForkSlice &
  RuntimesSlice &
  ToolServersSlice &
  ExposeSlice;

/** A slice creator that sees the whole store. */
export type SliceCreator<T> = StateCreator<StudioState, [], [], T>;
