import type { Manifest } from '../../src-shared/manifest';
import type { ExecutorFactory } from './executor';
import { createAgentLoop } from './loop';
import { createProcessExecutor } from './process-executor';

// THE selection point from inference.transport to the executor that runs tasks.
// DRIVERS HELPER: register the process-transport executor here (process: createProcessExecutor).
const EXECUTORS: Partial<Record<Manifest['inference']['transport'], ExecutorFactory>> = {
  http: createAgentLoop,
  embedded: createAgentLoop,
  process: (deps) => createProcessExecutor(deps),
};

export function executorFactoryFor(manifest: Manifest): ExecutorFactory {
  const transport = manifest.inference.transport;
  const factory = EXECUTORS[transport];
  if (!factory) throw new Error(`inference.transport: ${transport} is not yet available in this build`);
  return factory;
}
