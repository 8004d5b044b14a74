import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { invalidParams, type TaskPushNotificationConfig } from '../../../src-shared/a2a';
import { shortId } from '../../../src-shared/ids';
import { MAX_CONFIGS_PER_TASK } from './validate';

// The push configs of one session, by task. They live in the session's map (so the session owns
// them as long as its tasks) and are written through to a JSON file in its records folder, so a
// restarted door can still answer Get/List for them. The file holds tokens and credentials, so it
// is written owner-only; traces never see them.

/** Name of the file in a session's records folder. */
export const PUSH_CONFIGS_FILE = 'push-configs.json';

export interface PushStore {
  /** Adds a config, or replaces the one with the same id; an 11th config is invalid params. */
  put(taskId: string, config: TaskPushNotificationConfig): TaskPushNotificationConfig;
  get(taskId: string, id: string): TaskPushNotificationConfig | undefined;
  list(taskId: string): TaskPushNotificationConfig[];
  /** True when a config was removed. */
  delete(taskId: string, id: string): boolean;
  dispose(): void;
}

export interface PushStoreOptions {
  /** Where configs persist; omit to keep them in memory only. */
  file?: string;
  /** The session's map (Session.pushConfigs) to hold them in; a fresh map when omitted. */
  map?: Map<string, TaskPushNotificationConfig[]>;
}

function load(file: string, map: Map<string, TaskPushNotificationConfig[]>): void {
  if (!existsSync(file)) return;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, TaskPushNotificationConfig[]>;
    for (const [taskId, configs] of Object.entries(saved)) {
      if (Array.isArray(configs) && !map.has(taskId)) map.set(taskId, configs);
    }
  } catch {
    // A torn file loses the saved configs, never the session: callers re-create them.
  }
}

export function createPushStore(options: PushStoreOptions = {}): PushStore {
  const map = options.map ?? new Map<string, TaskPushNotificationConfig[]>();
  const file = options.file;
  if (file) load(file, map);

  const save = () => {
    if (!file) return;
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(map)), { mode: 0o600 });
    renameSync(tmp, file);
  };

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
    dispose() {},
  };
}
