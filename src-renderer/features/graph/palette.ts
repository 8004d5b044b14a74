/** What the palette offers, and the drag payload type that carries it onto the canvas. */
export type PaletteKind = 'orchestrator' | 'worker' | 'remote' | 'toolServer';

export const PALETTE_MIME = 'application/x-capsule-palette';

export const PALETTE_ITEMS: { kind: PaletteKind; title: string; hint: string }[] = [
  { kind: 'orchestrator', title: 'Orchestrator', hint: 'Delegates tasks to workers' },
  { kind: 'worker', title: 'Worker', hint: 'Takes tasks from orchestrators' },
  { kind: 'remote', title: 'Remote agent', hint: 'Any A2A agent, by its URL' },
  { kind: 'toolServer', title: 'Tool server (MCP)', hint: 'Tools for capsules: a local command or a URL' },
];

export const isPaletteKind = (v: string): v is PaletteKind =>
  v === 'orchestrator' || v === 'worker' || v === 'remote' || v === 'toolServer';
