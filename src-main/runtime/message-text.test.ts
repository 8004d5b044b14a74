import { describe, expect, it } from 'vitest';
import type { Message } from '../../src-shared/a2a';
import { MAX_FILE_TEXT, messageText } from './message-text';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const msg = (parts: Message['parts']): Message => ({ messageId: 'm', role: 'ROLE_USER', parts });

describe('messageText', () => {
  it('reads an inline text file into the message and only names other files', () => {
    const text = messageText(
      msg([
        { text: 'Check this' },
        { raw: b64('remember the milk\n'), filename: 'notes.md', mediaType: 'text/markdown' },
        { raw: b64('\u0000\u0001'), filename: 'a.png', mediaType: 'image/png' },
        { url: 'https://example.com/r.pdf', mediaType: 'application/pdf' },
        { data: { n: 1 }, mediaType: 'application/json' },
      ]),
    );
    expect(text).toBe(
      'Check this\n[file notes.md]\nremember the milk\n\n[file a.png]\n[file https://example.com/r.pdf]\n{"n":1}',
    );
  });

  it('bounds what it reads of one file', () => {
    const text = messageText(
      msg([{ raw: b64('x'.repeat(MAX_FILE_TEXT + 10)), filename: 'big.txt', mediaType: 'text/plain' }]),
    );
    expect(text.length).toBeLessThan(MAX_FILE_TEXT + 100);
    expect(text).toMatch(/\[… 10 more characters left out\]$/);
  });
});
