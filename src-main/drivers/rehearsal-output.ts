import type { Artifact, Message, Part } from '../../src-shared/a2a';
import type { Manifest, RehearsalArtifact, RehearsalPart } from '../../src-shared/manifest';

// What a rehearsal script can produce beyond text: A2A parts of every kind, artifacts (and chunks
// of them), and a sample answer for an output contract. Also how a reply is chosen by the task's
// message id and metadata.

type Reply = NonNullable<NonNullable<Manifest['inference']['rehearsal']>['replies']>[number];

/** A scripted part as an A2A part: text, data, a file's bytes (`raw`) or a file by url. */
export function toPart(p: RehearsalPart): Part {
  const out: Part = {};
  if (p.text !== undefined) out.text = p.text;
  else if (p.data !== undefined) out.data = p.data;
  else if (p.bytes !== undefined) out.raw = p.bytes;
  else if (p.url !== undefined) out.url = p.url;
  const mediaType =
    p.media_type ?? (p.text !== undefined ? 'text/plain' : p.data !== undefined ? 'application/json' : undefined);
  if (mediaType) out.mediaType = mediaType;
  if (p.filename) out.filename = p.filename;
  if (p.metadata) out.metadata = p.metadata;
  return out;
}

/** A scripted artifact as an A2A artifact; `fallbackId` names it when the script does not. */
export function toArtifact(a: RehearsalArtifact, fallbackId: string): Artifact {
  const out: Artifact = { artifactId: a.id ?? fallbackId, parts: a.parts.map(toPart) };
  if (a.name) out.name = a.name;
  if (a.description) out.description = a.description;
  if (a.metadata) out.metadata = a.metadata;
  return out;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The id-prefix and metadata conditions of a reply (its `when` is matched on the text apart). */
export function matchesMessage(
  reply: Pick<Reply, 'message_id' | 'metadata'>,
  message: Pick<Message, 'messageId' | 'metadata'> | undefined,
): boolean {
  if (reply.message_id !== undefined && !(message?.messageId ?? '').startsWith(reply.message_id)) return false;
  for (const [key, value] of Object.entries(reply.metadata ?? {})) {
    if (!sameJson(message?.metadata?.[key], value)) return false;
  }
  return true;
}

/**
 * A value of the shape a JSON Schema describes, for an unscripted rehearsal of a capsule with an
 * output contract: the first enum or const value, `text` for strings, empty lists, zeros. Depth is
 * bounded so a recursive schema ends.
 */
export function sampleOf(schema: unknown, text: string, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Record<string, unknown>;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length) return sampleOf(list[0], text, depth + 1);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, unknown>;
      for (const [key, sub] of Object.entries(props)) out[key] = sampleOf(sub, text, depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? Math.min(s.minItems, 3) : 0;
      return Array.from({ length: min }, () => sampleOf(s.items, text, depth + 1));
    }
    case 'string':
      return text;
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
