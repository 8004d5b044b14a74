import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CoreError,
  keptConversations,
  MAX_CONVERSATIONS,
  MAX_LAYOUTS_KEPT,
  PANEL_NAMES,
  SIDE_TABS,
  type KeptConversations,
  type KeptLayout,
} from '../../src-shared/contract';
import { createMasker } from '../trace';
import type { StudioContext } from './context';
import { existsSync, writeFileAtomic } from './files';
import type { Handlers } from './handlers';
import { STUDIO_FOLDER } from './studio-folder';

export { STUDIO_FOLDER };

// What the Studio keeps of the user's work (see src-shared/contract/keep.ts): the console's
// conversations in the workspace's own Studio folder, so they travel with the workspace and a
// reload or a restart finds them; each workspace's panel sizes, selected capsule and open tab in the user
// data folder. Both are conveniences: a file that is missing, too big or not ours reads as empty
// rather than refusing to start. Text typed into the console may hold a secret the user pasted;
// every value the secret store or the environment gives a manifest is masked before it is written.

const CONVERSATIONS_FILE = 'conversations.json';
const LAYOUT_FILE = 'layout.json';
/** Bigger files are not ours (200 kept messages are well under 1 MiB). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export const conversationsFile = (dir: string) => join(dir, STUDIO_FOLDER, CONVERSATIONS_FILE);

const EMPTY: KeptConversations = { conversations: [], entries: [], current: {} };
const NO_LAYOUT: KeptLayout = { panels: {}, selected: null };

function readJson(file: string): unknown {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined;
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Past MAX_CONVERSATIONS for a capsule, its oldest go, with their messages (a client may send more than it should). */
export function boundConversations(kept: KeptConversations): KeptConversations {
  const perCapsule = new Map<string, number[]>();
  for (const c of kept.conversations) perCapsule.set(c.capsuleId, [...(perCapsule.get(c.capsuleId) ?? []), c.id]);
  const dropped = new Set(
    [...perCapsule.values()].flatMap((ids) => ids.slice(0, Math.max(0, ids.length - MAX_CONVERSATIONS))),
  );
  if (!dropped.size) return kept;
  return {
    conversations: kept.conversations.filter((c) => !dropped.has(c.id)),
    entries: kept.entries.filter((e) => !dropped.has(e.conversation)),
    current: Object.fromEntries(Object.entries(kept.current).filter(([, id]) => !dropped.has(id))),
  };
}

/** One workspace's layout as read from the file, keeping only what is well formed. */
function layoutOf(raw: unknown): KeptLayout | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const l = raw as Partial<KeptLayout>;
  const panels: KeptLayout['panels'] = {};
  for (const name of PANEL_NAMES) {
    const v = l.panels?.[name];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) panels[name] = v;
  }
  const tab = SIDE_TABS.find((t) => t === l.tab);
  return { panels, selected: typeof l.selected === 'string' ? l.selected : null, ...(tab ? { tab } : {}) };
}

/**
 * The open workspace's folder, when it is the one the writer meant and it still exists: a late
 * write for a workspace since closed must not land in the one open now, nor bring a deleted folder
 * back to life.
 */
function openFolderFor(ctx: StudioContext, meant: string | undefined): string {
  const dir = ctx.workspace().dir;
  if (meant !== undefined && meant !== dir)
    throw new CoreError('conflict', `Not kept: it was written for ${meant}, and ${dir} is open now.`);
  if (!existsSync(dir))
    throw new CoreError('workspace_missing', `Not kept: the workspace folder ${dir} no longer exists.`);
  return dir;
}

export interface KeepDeps {
  /** Secret values to mask in what is written (the secret store's, and the environment's for the same names). */
  secretValues(): string[];
}

export function keepHandlers(
  ctx: StudioContext,
  deps: KeepDeps,
): Pick<Handlers, 'conversations.get' | 'conversations.save' | 'layout.get' | 'layout.set'> {
  const layoutFile = join(ctx.config.userDataDir, LAYOUT_FILE);

  /** Workspace folder -> its layout, least recently changed first. */
  const readLayouts = (): Record<string, KeptLayout> => {
    const raw = readJson(layoutFile) as { workspaces?: Record<string, unknown> } | undefined;
    const out: Record<string, KeptLayout> = {};
    for (const [dir, l] of Object.entries(raw?.workspaces ?? {})) {
      const layout = layoutOf(l);
      if (layout) out[dir] = layout;
    }
    return out;
  };

  return {
    'conversations.get'() {
      const file = conversationsFile(ctx.workspace().dir);
      const parsed = keptConversations.safeParse(readJson(file));
      return { ...(parsed.success ? boundConversations(parsed.data) : EMPTY), file };
    },
    'conversations.save'({ workspace, ...kept }) {
      const dir = openFolderFor(ctx, workspace);
      const file = conversationsFile(dir);
      const masked = createMasker(deps.secretValues())(boundConversations(kept));
      mkdirSync(join(dir, STUDIO_FOLDER), { recursive: true }); // the workspace itself exists (checked above)
      // Conversations are the user's, not the formation's: a workspace kept in git leaves them out.
      const ignore = join(dir, STUDIO_FOLDER, '.gitignore');
      if (!existsSync(ignore))
        writeFileAtomic(
          ignore,
          '# The Studio keeps your console conversations here; they stay out of version control.\n*\n',
        );
      writeFileAtomic(file, JSON.stringify(masked));
      return { file };
    },
    'layout.get': () => readLayouts()[ctx.workspace().dir] ?? NO_LAYOUT,
    'layout.set'({ workspace, panels, selected, tab }) {
      const dir = openFolderFor(ctx, workspace);
      const layouts = readLayouts();
      const mine = layouts[dir] ?? NO_LAYOUT;
      const next: KeptLayout = {
        panels: { ...mine.panels, ...panels },
        selected: selected === undefined ? mine.selected : selected,
        ...((tab ?? mine.tab) ? { tab: tab ?? mine.tab } : {}),
      };
      // Newest last, so the workspace forgotten past the bound is the one left alone longest.
      delete layouts[dir];
      layouts[dir] = next;
      const dirs = Object.keys(layouts);
      for (const old of dirs.slice(0, Math.max(0, dirs.length - MAX_LAYOUTS_KEPT))) delete layouts[old];
      mkdirSync(ctx.config.userDataDir, { recursive: true });
      writeFileAtomic(layoutFile, JSON.stringify({ workspaces: layouts }, null, 2));
      return next;
    },
  };
}
