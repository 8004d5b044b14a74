// The words of the actions more than one place offers (the toolbar and the command palette, the
// canvas menu and the palette, the console's hints): one constant each, so an action reads the same
// wherever it is found.

export const LAUNCH_ALL = 'Launch all';
export const STOP_ALL = 'Stop all';
/** Ends one capsule's session: the Tasks tab's button, and the stop dialog's yes. */
export const STOP_SESSION = 'Stop session';

/** A breakpoint's action, as the canvas menu and the palette name it: set before each turn of a capsule, on a connection, or cleared. */
export const BREAKPOINT_WORDS = {
  turn: 'Pause before each turn (breakpoint)',
  edge: 'Pause delegations here (breakpoint)',
  clear: 'Clear breakpoint',
} as const;
