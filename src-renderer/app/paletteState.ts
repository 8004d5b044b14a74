import { useSyncExternalStore } from 'react';

// Whether the command palette is open: UI state only, no store slice needed (nothing else reads it).

let open = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function openPalette(): void {
  if (!open) {
    open = true;
    emit();
  }
}
export function closePalette(): void {
  if (open) {
    open = false;
    emit();
  }
}
export function togglePalette(): void {
  open = !open;
  emit();
}
export function usePaletteOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    () => open,
  );
}
