import { lazy } from 'react';
import { lazyWhen } from '../ui/lazyWhen';

// The features the first screen does not show load on first use, each in its own chunk: the
// manifest editor and form (the YAML parser and the manifest schema with them), the task
// inspector, the live trace, the expose bar, the sessions browser and timeline, and the tools'
// dialogs, the workspace picker, a remote agent's or a tool server's details, and the restart
// question. The window then starts with the canvas, its toolbar and the console alone (under
// 500 kB of JavaScript). Each stays loaded once opened; a failed load is an ordinary render error.

export const ManifestPanel = lazy(() => import('../features/manifest').then((m) => ({ default: m.ManifestPanel })));
export const TaskInspector = lazy(() => import('../features/inspector').then((m) => ({ default: m.TaskInspector })));
export const LiveTracePanel = lazy(() => import('../features/traces').then((m) => ({ default: m.LiveTracePanel })));
export const ExposePanel = lazy(() => import('../features/expose').then((m) => ({ default: m.ExposePanel })));
export const ExportDialog = lazy(() => import('../features/deploy').then((m) => ({ default: m.ExportDialog })));
export const TestsDialog = lazy(() => import('../features/tests').then((m) => ({ default: m.TestsDialog })));
export const HistoryDialog = lazy(() => import('../features/history').then((m) => ({ default: m.HistoryDialog })));
export const TelemetryDialog = lazy(() =>
  import('../features/telemetry').then((m) => ({ default: m.TelemetryDialog })),
);
export const CommandPalette = lazy(() => import('./commands').then((m) => ({ default: m.CommandPalette })));
export const RestartDialog = lazyWhen(
  (s) => s.restartAsk !== null,
  () => import('../ui/RestartDialog').then((m) => m.RestartDialog),
);
export const WorkspaceDialog = lazy(() => import('./WorkspaceDialog').then((m) => ({ default: m.WorkspaceDialog })));
export const WorkspaceForm = lazy(() => import('./WorkspaceDialog').then((m) => ({ default: m.WorkspaceForm })));
export const RemoteDetails = lazy(() => import('./Details').then((m) => ({ default: m.RemoteDetails })));
export const ToolServerDetails = lazy(() => import('./Details').then((m) => ({ default: m.ToolServerDetails })));
export const StopConfirm = lazyWhen(
  (s) => s.stopAsk !== null,
  () => import('./StopConfirm').then((m) => m.StopConfirmDialog),
);
