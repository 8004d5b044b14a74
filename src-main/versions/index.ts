// Versions of a workspace: its history in git (every Studio save a step), diffs that name the
// permissions changed, restore as a new step, and the published version the gateway serves.
export { saveStep, listSteps, resolveVersion, requireRepo, shortVersion, type Step, type SaveResult } from './history';
export { compareVersions } from './compare';
export { diffVersions } from './diff';
export { restoreVersion } from './restore';
export { readVersion, readWorkingVersion, PUBLISHED_FILE, type VersionFiles } from './snapshot';
export { findRepo, type WorkspaceRepo } from './repo';
export { readPublished, writePublished } from './published';
export { historyHandlers, recordSaves, recordStep } from './studio-commands';
export { publishVersion, publishedWorkspace, materialize, type PublishOutcome, type PublishOptions } from './publish';
export { createPublishedServing, type PublishedServing } from './served';
