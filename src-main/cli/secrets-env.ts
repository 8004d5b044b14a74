import { join } from 'node:path';
import { recordsLayout } from '../runtime/layout';
import { createSecretStore, launchEnv } from '../secrets';

/**
 * What ${NAME} reads from a terminal: the shell's environment first, then the secrets set in the
 * web Studio (the same user-only file, $CAPSULE_HOME/studio/secrets.json).
 */
export function cliEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  return launchEnv(env, createSecretStore({ file: join(recordsLayout(env).home, 'studio', 'secrets.json') }));
}
