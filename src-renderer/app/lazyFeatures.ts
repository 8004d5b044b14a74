import { lazyPart } from '../ui/PartBoundary';
import { lazyWhen } from '../ui/lazyWhen';

// The features the first screen does not show load on first use, each in its own chunk: the
// manifest editor and form (the YAML parser and the manifest schema with them), the task
// inspector, the live trace, the expose bar, the sessions browser and timeline, and the tools'
// dialogs, the workspace picker, a remote agent's or a tool server's details, and the restart
// question. The window then starts with the canvas, its toolbar and the console alone (under
// 500 kB of JavaScript). Each stays loaded once opened; a failed load says so in the part's place,
// with Reload (ui/PartBoundary.tsx), and the rest of the window goes on working.

export const ManifestPanel = lazyPart('the manifest editor', () =>
  import('../features/manifest').then((m) => m.ManifestPanel),
);
export const TaskInspector = lazyPart('the task inspector', () =>
  import('../features/inspector').then((m) => m.TaskInspector),
);
export const LiveTracePanel = lazyPart('the live trace', () =>
  import('../features/traces').then((m) => m.LiveTracePanel),
);
export const ExposePanel = lazyPart('the expose bar', () => import('../features/expose').then((m) => m.ExposePanel));
export const ExportDialog = lazyPart('the Kubernetes export', () =>
  import('../features/deploy').then((m) => m.ExportDialog),
);
export const TestsDialog = lazyPart('the tests', () => import('../features/tests').then((m) => m.TestsDialog));
export const HistoryDialog = lazyPart('the history', () => import('../features/history').then((m) => m.HistoryDialog));
export const TelemetryDialog = lazyPart('the OpenTelemetry settings', () =>
  import('../features/telemetry').then((m) => m.TelemetryDialog),
);
export const CommandPalette = lazyPart('the command palette', () => import('./commands').then((m) => m.CommandPalette));
export const RestartDialog = lazyWhen(
  (s) => s.restartAsk !== null,
  () => import('../ui/RestartDialog').then((m) => m.RestartDialog),
  'the restart question',
);
export const WorkspaceDialog = lazyPart('the workspace picker', () =>
  import('./WorkspaceDialog').then((m) => m.WorkspaceDialog),
);
export const WorkspaceForm = lazyPart('the workspace picker', () =>
  import('./WorkspaceDialog').then((m) => m.WorkspaceForm),
);
export const RemoteDetails = lazyPart("the remote agent's details", () =>
  import('./Details').then((m) => m.RemoteDetails),
);
export const ToolServerDetails = lazyPart("the tool server's details", () =>
  import('./Details').then((m) => m.ToolServerDetails),
);
export const StopConfirm = lazyWhen(
  (s) => s.stopAsk !== null,
  () => import('./StopConfirm').then((m) => m.StopConfirmDialog),
  'the stop confirmation',
);
