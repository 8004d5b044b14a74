import { createUiState } from './uiState';

// Whether the command palette is open: UI state only, no store slice needed (nothing else reads it).

const palette = createUiState(false);

export const openPalette = (): void => palette.set(true);
export const closePalette = (): void => palette.set(false);
export const togglePalette = (): void => palette.set(!palette.get());
export const usePaletteOpen = (): boolean => palette.use();
