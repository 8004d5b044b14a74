import type { Locator } from '@playwright/test';

// Boxes on screen, for the checks that nothing covers what the user needs.

export type Box = { x: number; y: number; width: number; height: number };

export const intersects = (a: Box, b: Box): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The element's box on screen (it must be shown). */
export async function boxOf(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}
