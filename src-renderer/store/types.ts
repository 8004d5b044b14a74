import type { StateCreator } from 'zustand';
import type { ConsoleSlice } from './consoleSlice';
import type { FlowSlice } from './flowSlice';
import type { FormationSlice } from './formationSlice';
import type { GraphSlice } from './graphSlice';
import type { ManifestSlice } from './manifestSlice';
import type { NoticeSlice } from './noticeSlice';
import type { TasksSlice } from './tasksSlice';
import type { TracesSlice } from './tracesSlice';
import type { SessionsSlice } from './sessionsSlice';
import type { InspectorSlice } from './inspectorSlice';
import type { ReplaySlice } from './replaySlice';
import type { BreakpointsSlice } from './breakpointsSlice';
import type { ForkSlice } from './forkSlice';
import type { RuntimesSlice } from './runtimesSlice';
import type { ToolServersSlice } from './toolServersSlice';

/** The one bound store: every feature's slice side by side. */
export type StudioState = FormationSlice & GraphSlice & ManifestSlice & ConsoleSlice & TasksSlice & TracesSlice & NoticeSlice & SessionsSlice & InspectorSlice & FlowSlice & ReplaySlice & BreakpointsSlice & ForkSlice & RuntimesSlice & ToolServersSlice;

/** A slice creator that sees the whole store. */
export type SliceCreator<T> = StateCreator<StudioState, [], [], T>;
