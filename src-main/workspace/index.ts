// The Studio's workspace domain: workspace folders, their formation and manifests, the running
// capsules of the open formation, and the contract handlers over them. core.ts composes it.
export { createStudioContext, type StudioConfig, type StudioContext, type StudioPorts } from './context';
export { formationHandlers } from './formation-commands';
export { toolServerHandlers } from './tool-server-commands';
export { runHandlers } from './run-commands';
export { studioHandlers } from './studio-commands';
export { keepHandlers, conversationsFile, STUDIO_FOLDER } from './keep-commands';
export { createCapsuleSessions, type CapsuleSessions, type Emit } from './sessions';
export { createRecentList, type RecentList } from './recent';
export { ensureExampleWorkspace, copyExample, startWorkspace, EXAMPLE_FOLDER } from './example';
export { openWorkspaceFolder, type Workspace } from './workspace';
export { readFormation, FORMATION_FILE } from './formation-file';
export { summarizeManifest, hashSource } from './manifest-view';
export { deriveEdges } from './edges';
export type { CommandCall, Handlers } from './handlers';
export { formationResolver } from './formation-resolver';
export { createExposeService, type ExposeService } from './expose-commands';
export { createTunnelService, type TunnelService } from './tunnel-commands';
export { createBreakpoints, type BreakpointService } from './breakpoints';
export { launchFork, type ForkLaunchDeps, type LaunchedFork } from './fork-run';
export { telemetryHandlers } from './telemetry-commands';
export { createTelemetrySettings } from './telemetry-settings';
export { landsInside, realPathOf, writeFileAtomic, writeFileAtomicAsync } from './files';
export { resolveWorkspaceDir } from './workspace-dir';
