import type { Part } from '../../src-shared/a2a';

// The images among a tool result's parts (an MCP tool's screenshot or chart), as each provider's
// API wants them beside the result's text. Audio and other files stay as the lines the text
// already has ("[audio audio/wav, 1234 bytes]"): no provider here takes them in a tool result.

/** Image types every provider here accepts in a prompt. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export interface ToolImage {
  mediaType: string;
  /** base64 bytes, or undefined for an image by URL. */
  data?: string;
  url?: string;
}

/** The parts a model can be shown as images: base64 bytes or an http(s) URL, of a type it reads. */
export function toolImages(parts: readonly Part[] | undefined): ToolImage[] {
  const out: ToolImage[] = [];
  for (const p of parts ?? []) {
    const type = (p.mediaType ?? '').toLowerCase();
    if (!IMAGE_TYPES.has(type)) continue;
    if (p.raw) out.push({ mediaType: type, data: p.raw });
    else if (p.url && /^https?:\/\//i.test(p.url)) out.push({ mediaType: type, url: p.url });
  }
  return out;
}

/** An image as a URL the OpenAI APIs take: its own URL, or a data: URL of its bytes. */
export const imageUrl = (img: ToolImage): string => img.url ?? `data:${img.mediaType};base64,${img.data}`;
