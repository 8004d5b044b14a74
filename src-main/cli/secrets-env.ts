import { join } from 'node:path';
import type { ManifestIssue } from '../manifest';
import { recordsLayout } from '../runtime/layout';
import { createSecretStore, launchEnv } from '../secrets';

const secretsFile = (env: NodeJS.ProcessEnv) => join(recordsLayout(env).home, 'studio', 'secrets.json');

/**
 * What ${NAME} reads from a terminal: the shell's environment first, then the secrets set in the
 * web Studio (the same user-only file, $CAPSULE_HOME/studio/secrets.json).
 */
export function cliEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  return launchEnv(env, createSecretStore({ file: secretsFile(env) }));
}

/**
 * A variable reported "not set" may be one the secrets file holds, when that file cannot be read
 * (damaged, foreign, too big): then the issue names the file and what is wrong with it, as the
 * Studio's Secrets panel does, instead of advising an export that was never needed.
 */
export function explainMissingSecrets(issues: ManifestIssue[], env: NodeJS.ProcessEnv = process.env): ManifestIssue[] {
  if (!issues.some((i) => /^environment variable \S+ is not set$/.test(i.message))) return issues;
  let problem: string | undefined;
  try {
    createSecretStore({ file: secretsFile(env) }).view({});
  } catch (err) {
    problem = (err as Error).message;
  }
  if (!problem) return issues;
  return issues.map((i) =>
    /^environment variable \S+ is not set$/.test(i.message)
      ? {
          ...i,
          message: `${i.message}, and the secrets file cannot be read: ${problem}`,
          hint: 'repair or move the secrets file, then set the secret again in the Studio (or export it)',
        }
      : i,
  );
}
