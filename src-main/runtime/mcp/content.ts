import type { Part } from '../../../src-shared/a2a';
import type { RehearsalPart } from '../../../src-shared/manifest';

// A tool result from an MCP server, turned into what the model reads (text, bounded) and the
// parts a driver may pass on (images, audio and embedded resources, each bounded). The server's
// output is untrusted: anything that is not a known content shape is named and skipped.

/** The most text of one result the model reads; the rest is cut and the cut is said. */
export const MAX_RESULT_TEXT = 64 * 1024;
/** The most bytes of one binary item (image, audio, blob resource) passed on as a part. */
export const MAX_BINARY_BYTES = 1024 * 1024;

export interface ResultContent {
  text: string;
  parts: Part[];
}

type Item = {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  resource?: unknown;
  uri?: unknown;
  name?: unknown;
};

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4);

function binary(
  kind: string,
  data: string | undefined,
  mediaType: string,
  name: string | undefined,
  lines: string[],
  parts: Part[],
): void {
  if (data === undefined) return void lines.push(`[${kind} without data]`);
  const size = base64Bytes(data);
  if (size > MAX_BINARY_BYTES)
    return void lines.push(
      `[${kind} ${mediaType}, ${size} bytes: over the ${MAX_BINARY_BYTES}-byte limit, not passed on]`,
    );
  parts.push({ raw: data, mediaType, ...(name ? { filename: name } : {}) });
  lines.push(`[${kind} ${mediaType}${name ? ` ${name}` : ''}, ${size} bytes]`);
}

/** The model's text and the parts of a CallToolResult's `content` (and `structuredContent`). */
export function resultContent(content: unknown, structured?: unknown): ResultContent {
  const lines: string[] = [];
  const parts: Part[] = [];
  for (const raw of Array.isArray(content) ? content : []) {
    const item = (raw ?? {}) as Item;
    switch (item.type) {
      case 'text':
        lines.push(str(item.text) ?? '');
        break;
      case 'image':
      case 'audio':
        binary(item.type, str(item.data), str(item.mimeType) ?? 'application/octet-stream', undefined, lines, parts);
        break;
      case 'resource': {
        const r = (item.resource ?? {}) as Item;
        const uri = str(r.uri) ?? '';
        if (typeof r.text === 'string') lines.push(`[resource ${uri}]\n${r.text}`);
        else
          binary(
            'resource',
            str((r as { blob?: unknown }).blob),
            str(r.mimeType) ?? 'application/octet-stream',
            uri,
            lines,
            parts,
          );
        break;
      }
      case 'resource_link': {
        const uri = str(item.uri) ?? '';
        lines.push(`[resource link ${uri}${str(item.name) ? ` (${str(item.name)})` : ''}]`);
        if (/^https?:\/\//i.test(uri))
          parts.push({ url: uri, ...(str(item.mimeType) ? { mediaType: str(item.mimeType) } : {}) });
        break;
      }
      default:
        lines.push(`[content of an unknown type, skipped]`);
    }
  }
  if (!lines.length && structured !== undefined) lines.push(JSON.stringify(structured));
  return { text: cut(lines.join('\n')), parts };
}

/** Text cut to MAX_RESULT_TEXT, saying how much was dropped. */
export function cut(text: string): string {
  if (text.length <= MAX_RESULT_TEXT) return text;
  return `${text.slice(0, MAX_RESULT_TEXT)}\n[… ${text.length - MAX_RESULT_TEXT} more characters cut: a tool result is at most ${MAX_RESULT_TEXT} characters]`;
}

/** The most base64 of one result's parts its tool_result line keeps, so a rehearsal can hand them on again. */
export const MAX_RECORDED_PARTS_CHARS = 512 * 1024;

/**
 * A result's parts as its trace line records them (the rehearsal script's part shape), or
 * undefined when they are over MAX_RECORDED_PARTS_CHARS together: a replay then has the text only.
 */
export function recordedParts(parts: readonly Part[]): RehearsalPart[] | undefined {
  let chars = 0;
  const out: RehearsalPart[] = [];
  for (const p of parts) {
    chars += (p.raw ?? p.url ?? '').length;
    if (chars > MAX_RECORDED_PARTS_CHARS) return undefined;
    out.push({
      ...(p.raw !== undefined ? { bytes: p.raw } : { url: p.url }),
      ...(p.mediaType ? { media_type: p.mediaType } : {}),
      ...(p.filename ? { filename: p.filename } : {}),
    });
  }
  return out;
}
