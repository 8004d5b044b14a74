import { command, runsHere } from './command';
import { z } from 'zod';

// What the shell can do for the Studio (a native folder picker, where secrets are kept) and the
// secret store's commands. Spread into `commands` in commands.ts. A secret's value crosses the
// boundary once, in secrets.set; every answer carries names only.

const none = z.strictObject({}).optional();

/** The name manifests use in `${NAME}`. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** A named set of values (e.g. dev, prod); `default` always exists. */
export const ENVIRONMENT_NAME = /^[a-z0-9][a-z0-9._-]{0,31}$/i;
export const DEFAULT_ENVIRONMENT = 'default';
/** The longest secret value accepted (an API key or a token, with room to spare). */
export const SECRET_VALUE_MAX = 16 * 1024;

/** Where secrets are kept: the OS keychain (desktop, through Electron's safeStorage) or a file only the user can read. */
export interface SecretStoreInfo {
  kind: 'keychain' | 'file';
  /** The file holding them (encrypted values for the keychain kind). */
  where: string;
}

export interface StudioCapabilities {
  /** The shell opens a native folder dialog (the desktop); otherwise paths are typed. */
  pickFolder: boolean;
  secrets: SecretStoreInfo;
}

/** One folder in a listing of the web shell's folder browser. */
export interface FolderEntry {
  name: string;
  /** Its real path (a symbolic link resolved), the `dir` to list it. */
  path: string;
  /** It holds a formation.yaml: a workspace to open. */
  workspace: boolean;
}

/** The folders of one folder under the user's home, as the web shell's folder browser shows them. */
export interface FolderListing {
  /** The folder listed, as its real path. */
  dir: string;
  /** The user's home: the browser never goes above it. */
  home: string;
  /** The folder above, or null at the home (or at the open workspace, when it lies outside the home). */
  parent: string | null;
  /** Sub-folders by name; links that lead out of the home are left out. */
  folders: FolderEntry[];
  /** More folders than a listing holds (FOLDER_LISTING_MAX): type the path of the one you want. */
  truncated: boolean;
}

/** The most folders one listing of the folder browser holds. */
export const FOLDER_LISTING_MAX = 500;

/** One secret as the UI shows it: never its value. */
export interface SecretEntry {
  name: string;
  /** The environments that hold a value for it. */
  environments: string[];
  /** The process environment has this name too, and wins over the store. */
  shadowedByProcess: boolean;
}

export interface SecretsView {
  store: SecretStoreInfo;
  /** The environment launches read (values missing there come from `default`). */
  environment: string;
  environments: string[];
  secrets: SecretEntry[];
}

const secretName = z.string().regex(SECRET_NAME, 'letters, digits and _, not starting with a digit (as in ${NAME})');
const environment = z.string().regex(ENVIRONMENT_NAME, 'letters, digits, ., - and _ (at most 32)');

export const studioCommands = {
  'studio.capabilities': command<StudioCapabilities>()(
    'What this shell offers: a native folder picker, where secrets are kept.',
    none,
    runsHere,
  ),
  'workspace.pickFolder': command<{ dir: string | null }>()(
    'Asks the user for a folder with the system dialog (desktop only): to open or create a workspace, or to export into; null when they cancel.',
    z.strictObject({ purpose: z.enum(['open', 'create', 'export']) }),
    runsHere,
  ),
  'workspace.browse': command<FolderListing>()(
    "Lists the folders of a folder under the user's home (default: the home; a relative path is under it), for the web shell's folder browser. Symbolic links are resolved; a folder outside the home (other than the open workspace's) is refused. `hidden`: include folders whose name starts with a dot.",
    z.strictObject({ dir: z.string().min(1).max(4096).optional(), hidden: z.boolean().optional() }),
    runsHere, // this host's folders (an attached Studio's are refused outside its workspaces)
  ),
  'secrets.list': command<SecretsView>()(
    'Secret names (never values), environments and the one launches use.',
    none,
    runsHere,
  ),
  'secrets.set': command<SecretsView>()(
    'Sets or replaces a secret in an environment (default: `default`). The value is never shown again.',
    z.strictObject({
      name: secretName,
      value: z.string().min(1).max(SECRET_VALUE_MAX),
      environment: environment.optional(),
    }),
    runsHere,
  ),
  'secrets.delete': command<SecretsView>()(
    'Deletes a secret from an environment (default: `default`).',
    z.strictObject({ name: secretName, environment: environment.optional() }),
    runsHere,
  ),
  'secrets.useEnvironment': command<SecretsView>()(
    'Chooses the environment whose values the next launches get.',
    z.strictObject({ environment }),
    runsHere,
  ),
} as const;
