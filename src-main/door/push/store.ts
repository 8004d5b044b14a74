import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { invalidParams, type TaskPushNotificationConfig } from '../../../src-shared/a2a';
import { shortId } from '../../../src-shared/ids';
import { atomicWrite } from '../../fs';
import { MAX_CONFIGS_PER_TASK } from './validate';

// The push configs of one session, by task. They live in the session's map (so the session owns
// them as long as its tasks) and are written through to a JSON file in its records folder, so a
// restarted door can still answer Get/List for them. The file holds tokens and credentials, so it
// is written owner-only; traces never see them. Nothing here touches the file on the calling thread:
// the file is read once, off the main thread (`loaded`), and written the same way after a change,
// one write at a time, the latest state winning (changes made while a write is under way go out in
// the next one), each through a temporary file renamed over the old (readers never see half of it).

/** Name of the file in a session's records folder. */
export const PUSH_CONFIGS_FILE = 'push-configs.json';

export interface PushStore {
  /** Adds a config, or replaces the one with the same id; an 11th config is invalid params. */
  put(taskId: string, config: TaskPushNotificationConfig): TaskPushNotificationConfig;
  get(taskId: string, id: string): TaskPushNotificationConfig | undefined;
  list(taskId: string): TaskPushNotificationConfig[];
  /** True when a config was removed. */
  delete(taskId: string, id: string): boolean;
  /** Settles once the configs saved by an earlier run of the session are in (get and list see them). */
  readonly loaded: Promise<void>;
  /** Settles once every change so far is in the file. */
  flush(): Promise<void>;
  dispose(): void;
}

export interface PushStoreOptions {
  /** Where configs persist; omit to keep them in memory only. */
  file?: string;
  /** The session's map (Session.pushConfigs) to hold them in; a fresh map when omitted. */
  map?: Map<string, TaskPushNotificationConfig[]>;
}

/** Takes in the configs an earlier run saved; a task that has configs already keeps its own. */
async function load(file: string, map: Map<string, TaskPushNotificationConfig[]>): Promise<void> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, TaskPushNotificationConfig[]>;
    for (const [taskId, configs] of Object.entries(saved)) {
      if (Array.isArray(configs) && !map.has(taskId)) map.set(taskId, configs);
    }
  } catch {
    // No file yet (a new session), or a torn one: it loses the saved configs, never the session;
    // callers re-create them.
  }
}

/** Writes the configs whenever they changed, one write in flight, the latest state winning. */
function createSaver(file: string, map: Map<string, TaskPushNotificationConfig[]>, loaded: Promise<void>) {
  let changed = false;
  let writing: Promise<void> | undefined;
  const writeAll = async () => {
    // The saved configs are in before the first write, so it never drops them.
    await loaded;
    while (changed) {
      changed = false;
      try {
        await mkdir(dirname(file), { recursive: true });
        await atomicWrite(file, JSON.stringify(Object.fromEntries(map)), { mode: 0o600 });
      } catch {
        // A full or gone disk loses what the file would have said, never the session: the configs
        // stay in memory for this run, and the next change tries again.
      }
    }
    writing = undefined;
  };
  return {
    save() {
      changed = true;
      writing ??= writeAll();
    },
    flush: (): Promise<void> => writing ?? Promise.resolve(),
  };
}

export function createPushStore(options: PushStoreOptions = {}): PushStore {
  const map = options.map ?? new Map<string, TaskPushNotificationConfig[]>();
  const file = options.file;
  const loaded = file ? load(file, map) : Promise.resolve();
  const saver = file ? createSaver(file, map, loaded) : undefined;
  const save = () => saver?.save();

  return {
    put(taskId, config) {
      const configs = map.get(taskId) ?? [];
      const stored: TaskPushNotificationConfig = { ...config, id: config.id || shortId('psh', 8), taskId };
      const at = configs.findIndex((c) => c.id === stored.id);
      if (at >= 0) configs[at] = stored;
      else {
        if (configs.length >= MAX_CONFIGS_PER_TASK) {
          throw invalidParams(
            'params',
            `task ${taskId} already has ${MAX_CONFIGS_PER_TASK} push configs (the most a task keeps)`,
          );
        }
        configs.push(stored);
      }
      map.set(taskId, configs);
      save();
      return { ...stored };
    },
    get(taskId, id) {
      const found = map.get(taskId)?.find((c) => c.id === id);
      return found && { ...found };
    },
    list(taskId) {
      return (map.get(taskId) ?? []).map((c) => ({ ...c }));
    },
    delete(taskId, id) {
      const configs = map.get(taskId);
      const at = configs?.findIndex((c) => c.id === id) ?? -1;
      if (!configs || at < 0) return false;
      configs.splice(at, 1);
      if (!configs.length) map.delete(taskId);
      save();
      return true;
    },
    loaded,
    flush: () => saver?.flush() ?? Promise.resolve(),
    dispose() {},
  };
}
