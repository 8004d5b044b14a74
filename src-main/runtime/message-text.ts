import type { Message } from '../../src-shared/a2a';

// What the model reads of a message: its text parts, data parts as JSON, and files. A file that
// is text (text/*, JSON, YAML, XML) sent inline is read into the message, up to a bound, so
// `capsule send --file notes.md` reaches the model; any other file is named only.

/** The most of one inline text file the model reads (the door takes at most 1 MiB per request anyway). */
export const MAX_FILE_TEXT = 256 * 1024;

const isText = (mediaType: string | undefined) =>
  !!mediaType && /^(text\/|application\/(json|yaml|x-yaml|xml)\b)/i.test(mediaType);

function inlineText(raw: string): string {
  const text = Buffer.from(raw, 'base64').toString('utf8');
  return text.length > MAX_FILE_TEXT
    ? `${text.slice(0, MAX_FILE_TEXT)}\n[… ${text.length - MAX_FILE_TEXT} more characters left out]`
    : text;
}

/** The text of a message: its text parts, data parts as JSON, inline text files with their content. */
export function messageText(message: Message): string {
  const out: string[] = [];
  for (const p of message.parts) {
    if (p.text !== undefined) out.push(p.text);
    else if (p.data !== undefined) out.push(JSON.stringify(p.data));
    else if (p.url !== undefined) out.push(`[file ${p.filename ?? p.url}]`);
    else if (p.raw !== undefined)
      out.push(
        isText(p.mediaType)
          ? `[file ${p.filename ?? 'inline'}]\n${inlineText(p.raw)}`
          : `[file ${p.filename ?? 'inline'}]`,
      );
  }
  return out.join('\n');
}
