import { useSyncExternalStore } from 'react';

/** The user's theme choice: follow the system, or pin light/dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'capsule.theme';
const listeners = new Set<() => void>();

function read(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Puts the choice on <html data-theme>, where the stylesheet picks the palette. */
export function applyTheme(choice: ThemeChoice = read()): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {}
  applyTheme(choice);
  listeners.forEach((l) => l());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, read);
}

/** The colour mode xyflow should draw in (it follows the system itself for 'system'). */
export function useColorMode(): ThemeChoice {
  return useThemeChoice();
}
