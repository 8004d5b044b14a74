import { CoreError } from '../../src-shared/contract';
import type { SecretStore } from '../secrets';
import type { StudioContext } from './context';
import { listFolders } from './folder-browser';
import type { Handlers } from './handlers';

// Handlers for what the shell offers (the native folder picker, or the folder browser of the web
// shell, which lists folders under the home) and the secret store. Answers
// carry secret names only; a changed secret re-reads the formation, so a manifest whose ${NAME}
// was missing stops saying so.

export function studioHandlers(
  ctx: StudioContext,
  secrets: SecretStore,
  processEnv: Record<string, string | undefined>,
): Pick<
  Handlers,
  | 'studio.capabilities'
  | 'workspace.pickFolder'
  | 'workspace.browse'
  | 'secrets.list'
  | 'secrets.set'
  | 'secrets.delete'
  | 'secrets.useEnvironment'
> {
  const changed = () => {
    try {
      if (ctx.current()?.reload()) ctx.changed();
    } catch {
      // The formation's own problems are reported by its watcher; the secret was still saved.
    }
    return secrets.view(processEnv);
  };
  return {
    'studio.capabilities': () => ({ pickFolder: Boolean(ctx.ports.pickFolder), secrets: secrets.info }),
    async 'workspace.pickFolder'({ purpose }) {
      if (!ctx.ports.pickFolder)
        throw new CoreError('invalid_input', 'This shell has no folder dialog; type the folder path instead.');
      return { dir: (await ctx.ports.pickFolder(purpose)) ?? null };
    },
    'workspace.browse': ({ dir, hidden }) =>
      listFolders({ dir, hidden, also: [ctx.current()?.dir].filter((d): d is string => !!d) }),
    'secrets.list': () => secrets.view(processEnv),
    'secrets.set'({ name, value, environment }) {
      secrets.set(name, value, environment);
      return changed();
    },
    'secrets.delete'({ name, environment }) {
      secrets.delete(name, environment);
      return changed();
    },
    'secrets.useEnvironment'({ environment }) {
      secrets.useEnvironment(environment);
      return changed();
    },
  };
}
