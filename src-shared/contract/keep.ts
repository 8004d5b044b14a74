import { command, runsHere } from './command';
import { z } from 'zod';
import { TASK_STATES } from '../a2a';
import { SESSION_ID_RE } from '../ids';
import { MAX_CONSOLE_ENTRIES, MAX_KEPT_TEXT, MAX_PANEL_SIZE, PANEL_NAMES, SIDE_TABS } from './keep-limits';

// What the Studio keeps of the user's work between reloads and restarts. Conversations belong to
// the workspace (a file in its own Studio folder, so they travel with it). The layout (panel sizes,
// the selected capsule and its open tab) is kept per workspace too, as an editor keeps its own, but in the user data
// folder: it is the user's view, not the formation's, and the web shell's page gets a new origin
// (so an empty localStorage) on every port. Spread into `commands` in commands.ts; the handlers
// live in src-main/workspace/keep-commands.ts.

const none = z.strictObject({}).optional();

const id = z.string().min(1).max(200);
/**
 * The workspace folder the page had open when it wrote: a save that arrives after another
 * workspace opened (a debounced write, a page closing) is refused rather than written into the
 * wrong workspace.
 */
const writtenFor = z.string().min(1).max(4096).optional();
const text = z.string().max(MAX_KEPT_TEXT + 1);

/** One message sent from the console, with how its task ended when it was kept (its answer, cut). */
export const keptEntry = z.strictObject({
  key: z.number().int().nonnegative(),
  capsuleId: id,
  conversation: z.number().int().nonnegative(),
  text,
  data: text.optional(),
  files: z
    .array(z.strictObject({ name: z.string().max(255), size: z.number().int().nonnegative() }))
    .max(20)
    .optional(),
  taskId: id.optional(),
  /** The session that ran the task: its trace tells the task's delegations again after a reload, the session stopped or not. */
  sessionId: z.string().regex(SESSION_ID_RE).optional(),
  error: text.optional(),
  /** The task's state when last seen. */
  state: z.enum(TASK_STATES).optional(),
  answer: text.optional(),
});

export const keptConversation = z.strictObject({
  id: z.number().int().nonnegative(),
  capsuleId: id,
  contextId: id.optional(),
});

export const keptConversations = z.strictObject({
  conversations: z.array(keptConversation).max(MAX_CONSOLE_ENTRIES),
  entries: z.array(keptEntry).max(MAX_CONSOLE_ENTRIES),
  /** The open conversation of each capsule, by capsule id. */
  current: z
    .record(id, z.number().int().nonnegative())
    .refine((r) => Object.keys(r).length <= MAX_CONSOLE_ENTRIES, 'too many capsules'),
});

export type KeptEntry = z.infer<typeof keptEntry>;
export type KeptConversation = z.infer<typeof keptConversation>;
/** A workspace's console history as kept in its Studio folder. */
export type KeptConversations = z.infer<typeof keptConversations>;

export type PanelName = (typeof PANEL_NAMES)[number];
/** A tab of a capsule's details beside the canvas. */
export type SideTab = (typeof SIDE_TABS)[number];

/** The open workspace's layout: panel sizes (px), the capsule last selected there and the details tab last open (none kept: the Manifest). */
export interface KeptLayout {
  panels: Partial<Record<PanelName, number>>;
  selected: string | null;
  tab?: SideTab;
}

export const keepCommands = {
  'conversations.get': command<KeptConversations & { file: string }>()(
    "The open workspace's console conversations as kept in its Studio folder (none yet: empty lists), and the file.",
    none,
    runsHere,
  ),
  'conversations.save': command<{ file: string }>()(
    "Keeps the open workspace's console conversations in its Studio folder (bounded: 200 messages, 20 conversations a capsule; secret values are masked). With `workspace`, refused (conflict) unless that folder is the one open.",
    keptConversations.extend({ workspace: writtenFor }),
    runsHere,
  ),
  'layout.get': command<KeptLayout>()(
    "The open workspace's panel sizes, selected capsule and open details tab, as last kept.",
    none,
    runsHere,
  ),
  'layout.set': command<KeptLayout>()(
    'Keeps panel sizes, the selected capsule (null: none) and/or the open details tab of the open workspace. With `workspace`, refused (conflict) unless that folder is the one open.',
    z.strictObject({
      workspace: writtenFor,
      panels: z.partialRecord(z.enum(PANEL_NAMES), z.number().int().min(0).max(MAX_PANEL_SIZE)).optional(),
      selected: id.nullable().optional(),
      tab: z.enum(SIDE_TABS).optional(),
    }),
    runsHere,
  ),
} as const;
