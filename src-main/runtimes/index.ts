// Runtimes on other hosts attached to this Studio (see service.ts).
export { createRuntimes, type RuntimesService, type RuntimesOptions } from './service';
export { createRuntimeLink, wsUrlOf, type RuntimeLink } from './link';
export { runtimeTokenName } from './settings';
