import { DRIVER_ARTIFACTS, type Manifest } from '../../src-shared/manifest';
import { createHttpDriverFor, isHttpDriverKind } from './http';
import { priceUsd as pricesTable } from './prices';
export { pricePerMTok } from './prices';
import { createRehearsalDriver } from './rehearsal';
import type { Driver } from './types';

// The drivers surface: picks the driver a manifest names. Provider drivers (anthropic, openai,
// deepseek, openai-compatible) plug in at the one marked spot below.

export * from './types';
export { createRehearsalDriver, acknowledgement, estimateTokens, matchesWhen } from './rehearsal';
export { createForkDriver, forkedFromLine, MAX_FORK_PREFIX, type ForkPlan } from './fork';
export { givenEntry, givenDivergence, GIVEN_TEXT_LIMIT } from './rehearsal-given';
export { toPart } from './rehearsal-output';

export interface DriverOptions {
  /** Environment the manifest was interpolated from (keys the provider drivers may read). */
  env?: Record<string, string | undefined>;
  /** Secrets to keep out of errors. */
  secrets?: readonly string[];
}

/** Dollar price of one turn, where a price table knows the model. */
export type PriceFn = (model: string, tokensIn: number, tokensOut: number) => number | undefined;

export const priceUsd: PriceFn | undefined = pricesTable;

export class DriverUnavailableError extends Error {}

export function createDriver(manifest: Manifest, _opts: DriverOptions = {}): Driver {
  const artifact = manifest.inference.driver.artifact;
  const kind = (DRIVER_ARTIFACTS as Record<string, string>)[artifact];
  if (kind === undefined) {
    const known = Object.keys(DRIVER_ARTIFACTS).join(', ');
    throw new DriverUnavailableError(
      `unknown driver artifact "${artifact}" (inference.driver.artifact); built-in drivers: ${known}`,
    );
  }
  if (kind === 'rehearsal') return createRehearsalDriver(manifest);
  if (isHttpDriverKind(kind)) return createHttpDriverFor(manifest, kind);
  // capsule/driver-process is a harness CLI with its own loop: it runs as an executor, not a driver.
  throw new DriverUnavailableError(
    `driver ${artifact} runs a harness CLI: set inference.transport: process and inference.harness`,
  );
}
