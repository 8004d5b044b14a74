import { mkdirSync, rmSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CoreError, type IssueView, type Position } from '../../src-shared/contract';
import {
  addEntry,
  FORMATION_FILE,
  readFormation,
  removeEntry,
  replaceFields,
  setPosition,
  type FormationListKey,
  type FormationToolServerEntry,
} from './formation-file';
import { describeFsError } from '../manifest';
import { checkSourceSize, existsSync, isDirectory, landsInside, readText, writeFileAtomic } from './files';
import { hashSource, summarizeManifest, type ManifestSummary } from './manifest-view';

// One open workspace folder: formation.yaml plus a manifest per capsule, loaded into a snapshot
// the core turns into a FormationView. Every edit reads the file from disk right before changing
// it, so an edit made by another editor a moment ago is built upon, never overwritten.

export interface LoadedCapsule {
  id: string;
  /** Manifest path relative to the workspace. */
  manifestPath: string;
  file: string;
  position: Position;
  /** formation.yaml gives no position. */
  unplaced?: true;
  source: string;
  hash: string;
  summary: ManifestSummary;
}
export interface LoadedRemote {
  id: string;
  url: string;
  position: Position;
  unplaced?: true;
}
export interface WorkspaceSnapshot {
  dir: string;
  name: string;
  capsules: LoadedCapsule[];
  remotes: LoadedRemote[];
  /** formation.yaml `tool_servers` (paths in their definitions are relative to the workspace folder). */
  toolServers: FormationToolServerEntry[];
  issues: IssueView[];
  /** Hash over every file read, to tell whether a reload changed anything. */
  fingerprint: string;
}

export interface Workspace {
  readonly dir: string;
  snapshot(): WorkspaceSnapshot;
  /** Reads everything again; true when something changed since the last load. */
  reload(): boolean;
  capsule(id: string): LoadedCapsule;
  /** Reads a manifest from disk now (not the snapshot) for an edit. */
  readManifestNow(id: string): { file: string; source: string; hash: string };
  /** Writes a manifest; with `expected`, refuses when the file on disk is not that version. */
  writeManifest(id: string, source: string, expected?: string): { hash: string; issues: IssueView[] };
  editFormation(edit: (source: string) => string): void;
  /** Creates a manifest file (refuses to overwrite one). */
  createManifest(relPath: string, source: string): void;
  deleteManifest(id: string): void;
  moveNode(kind: FormationListKey, id: string, p: Position): void;
  removeNode(kind: FormationListKey, id: string): void;
  addNode(kind: FormationListKey, entry: { id: string; position: Position } & Record<string, unknown>): void;
  /** Replaces an entry's fields besides id and position. */
  updateNode(kind: FormationListKey, id: string, fields: Record<string, unknown>): void;
}

function inside(dir: string, rel: string): string {
  const file = resolve(dir, rel);
  if (isAbsolute(rel) || (file !== dir && !file.startsWith(dir + sep)))
    throw new CoreError('invalid_input', `Manifest path ${rel} leaves the workspace folder`);
  landsHere(dir, file, rel);
  return file;
}

/**
 * A path inside the folder as written can still lead out of it through a symbolic link (a linked
 * folder or file): then a read would show, and a write replace, a file elsewhere on the machine.
 * Checked right before every read and write, since a link can appear after the workspace loaded.
 */
function landsHere(dir: string, file: string, rel: string): void {
  if (!landsInside(dir, file))
    throw new CoreError(
      'invalid_input',
      `${rel} leads outside the workspace folder through a symbolic link; the Studio reads and writes only files inside it.`,
    );
}

export function openWorkspaceFolder(
  dirInput: string,
  env: Record<string, string | undefined> = process.env,
): Workspace {
  const dir = resolve(dirInput);
  if (!existsSync(dir))
    throw new CoreError('workspace_missing', `The workspace folder ${dir} does not exist (moved or deleted?).`);
  if (!isDirectory(dir)) throw new CoreError('workspace_missing', `${dir} is a file, not a workspace folder.`);
  const formationFile = join(dir, FORMATION_FILE);
  if (!existsSync(formationFile))
    throw new CoreError('not_found', `${dir} has no ${FORMATION_FILE}; create a workspace there instead.`);

  const load = (): WorkspaceSnapshot => {
    landsHere(dir, formationFile, FORMATION_FILE);
    const read = readText(formationFile);
    if (!read.ok) throw new CoreError('io_error', `Cannot open the workspace: ${read.message}`);
    const formation = readFormation(read.text);
    const capsules = formation.capsules.map((entry): LoadedCapsule => {
      let file: string;
      try {
        file = inside(dir, entry.manifest);
      } catch (err) {
        const summary = summarizeManifest('', entry.manifest, env);
        summary.issues = [{ path: '', message: (err as Error).message }];
        return {
          id: entry.id,
          manifestPath: entry.manifest,
          file: join(dir, '.invalid'),
          position: entry.position,
          ...(entry.unplaced ? { unplaced: true } : {}),
          source: '',
          hash: hashSource(''),
          summary,
        };
      }
      const text = readText(file);
      const source = text.ok ? text.text : '';
      const summary = summarizeManifest(source, relative(dir, file), env);
      if (!text.ok) summary.issues = [{ path: '', message: text.message }];
      return {
        id: entry.id,
        manifestPath: entry.manifest,
        file,
        position: entry.position,
        ...(entry.unplaced ? { unplaced: true } : {}),
        source,
        hash: hashSource(source),
        summary,
      };
    });
    const fingerprint = hashSource(
      [read.text, ...capsules.map((c) => `${c.id}:${c.hash}:${c.summary.issues.length}`)].join('\0'),
    );
    return {
      dir,
      name: basename(dir),
      capsules,
      remotes: formation.remotes,
      toolServers: formation.toolServers,
      issues: formation.issues,
      fingerprint,
    };
  };

  let current = load();

  const capsule = (id: string): LoadedCapsule => {
    const c = current.capsules.find((x) => x.id === id);
    if (!c) throw new CoreError('not_found', `No capsule ${id} in this formation.`);
    return c;
  };

  const refresh = () => {
    current = load();
  };

  return {
    dir,
    snapshot: () => current,
    reload() {
      const before = current.fingerprint;
      refresh();
      return current.fingerprint !== before;
    },
    capsule,
    readManifestNow(id) {
      const c = capsule(id);
      inside(dir, c.manifestPath);
      const text = readText(c.file);
      if (!text.ok) throw new CoreError('io_error', `Cannot edit ${c.manifestPath}: ${text.message}`);
      return { file: c.file, source: text.text, hash: hashSource(text.text) };
    },
    writeManifest(id, source, expected) {
      const c = capsule(id);
      checkSourceSize(c.manifestPath, source);
      inside(dir, c.manifestPath);
      if (expected !== undefined) {
        const onDisk = readText(c.file);
        const diskHash = onDisk.ok ? hashSource(onDisk.text) : undefined;
        if (diskHash !== expected) {
          throw new CoreError(
            'conflict',
            `${c.manifestPath} changed on disk since you loaded it; reload it (your text is kept in the editor) and apply your change again.`,
            {
              id,
              path: c.manifestPath,
              hash: diskHash ?? null,
            },
          );
        }
      }
      writeFileAtomic(c.file, source);
      refresh();
      return { hash: hashSource(source), issues: capsule(id).summary.issues };
    },
    editFormation(edit) {
      landsHere(dir, formationFile, FORMATION_FILE);
      const read = readText(formationFile);
      if (!read.ok) throw new CoreError('io_error', `Cannot edit the formation: ${read.message}`);
      let next: string;
      try {
        next = edit(read.text);
      } catch (err) {
        throw err instanceof CoreError ? err : new CoreError('invalid_input', (err as Error).message);
      }
      if (next !== read.text) {
        checkSourceSize('The formation file', next);
        writeFileAtomic(formationFile, next);
      }
      refresh();
    },
    createManifest(relPath, source) {
      const file = inside(dir, relPath);
      if (existsSync(file)) throw new CoreError('conflict', `${relPath} already exists in the workspace.`);
      checkSourceSize(relPath, source);
      try {
        mkdirSync(resolve(file, '..'), { recursive: true });
      } catch (err) {
        throw new CoreError('io_error', `Cannot create ${relPath}: ${describeFsError(err)}`);
      }
      writeFileAtomic(file, source);
    },
    deleteManifest(id) {
      const c = capsule(id);
      inside(dir, c.manifestPath);
      rmSync(c.file, { force: true });
    },
    moveNode(kind, id, p) {
      this.editFormation((s) => setPosition(s, kind, id, p));
    },
    removeNode(kind, id) {
      this.editFormation((s) => removeEntry(s, kind, id));
    },
    addNode(kind, entry) {
      this.editFormation((s) => addEntry(s, kind, entry));
    },
    updateNode(kind, id, fields) {
      this.editFormation((s) => replaceFields(s, kind, id, fields));
    },
  };
}
