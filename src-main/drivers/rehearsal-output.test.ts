import { describe, expect, it } from 'vitest';
import { matchesMessage, sampleOf, toPart } from './rehearsal-output';

// The rehearsal script's parts, reply conditions on the message, and samples of an output contract.

describe('rehearsal output', () => {
  it('turns scripted parts into A2A parts with default media types', () => {
    expect(toPart({ text: 'hi' })).toEqual({ text: 'hi', mediaType: 'text/plain' });
    expect(toPart({ data: [1] })).toEqual({ data: [1], mediaType: 'application/json' });
    expect(toPart({ bytes: 'AAEC', filename: 'b.bin' })).toEqual({ raw: 'AAEC', filename: 'b.bin' });
    expect(toPart({ url: 'https://x.test/a.pdf', media_type: 'application/pdf' })).toEqual({
      url: 'https://x.test/a.pdf',
      mediaType: 'application/pdf',
    });
  });

  it('matches a message by id prefix and by every metadata key given', () => {
    expect(matchesMessage({ message_id: 'tck-' }, { messageId: 'tck-1' })).toBe(true);
    expect(matchesMessage({ message_id: 'tck-' }, { messageId: 'x' })).toBe(false);
    expect(matchesMessage({ metadata: { a: { b: 1 } } }, { messageId: 'x', metadata: { a: { b: 1 }, c: 2 } })).toBe(
      true,
    );
    expect(matchesMessage({ metadata: { a: 1 } }, { messageId: 'x' })).toBe(false);
    expect(matchesMessage({}, undefined)).toBe(true);
  });

  it('samples a schema: const, enum, defaults, nested objects, minimum list lengths, and a bounded depth', () => {
    const schema = {
      type: 'object',
      properties: {
        kind: { enum: ['report', 'memo'] },
        fixed: { const: 7 },
        count: { type: 'integer', minimum: 1 },
        tags: { type: 'array', minItems: 2, items: { type: 'string' } },
        nested: { type: 'object', properties: { ok: { type: 'boolean' } } },
        either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
      },
    };
    expect(sampleOf(schema, 't')).toEqual({
      kind: 'report',
      fixed: 7,
      count: 1,
      tags: ['t', 't'],
      nested: { ok: false },
      either: 0,
    });
    const loop: Record<string, unknown> = { type: 'object', properties: {} };
    (loop.properties as Record<string, unknown>).self = loop;
    expect(JSON.stringify(sampleOf(loop, 't')).length).toBeLessThan(200);
  });
});
