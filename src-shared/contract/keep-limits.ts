// The bounds of what the Studio keeps between reloads, apart from the schemas so the page's first
// screen can read them without loading the schema library.

/** The most console messages a workspace keeps; the oldest go first. */
export const MAX_CONSOLE_ENTRIES = 200;
/** The most conversations one capsule keeps; the oldest goes first, with its messages. */
export const MAX_CONVERSATIONS = 20;
/** The most characters of a message, its data or its answer that are kept (the rest is cut, marked with …). */
export const MAX_KEPT_TEXT = 1500;
/** The most workspaces whose layout is remembered (the least recently changed is forgotten). */
export const MAX_LAYOUTS_KEPT = 50;
/** The panels whose size is kept, and the largest size (px) a panel may be kept at. */
export const PANEL_NAMES = ['side', 'console'] as const;
export const MAX_PANEL_SIZE = 10_000;
/** The tabs of a capsule's details beside the canvas; the one open is kept with the selection. */
export const SIDE_TABS = ['manifest', 'tasks', 'trace'] as const;
