import type { Message } from '../../src-shared/a2a';

/** The text of a message: its text parts, and data parts as JSON. */
export function messageText(message: Message): string {
  const out: string[] = [];
  for (const p of message.parts) {
    if (p.text !== undefined) out.push(p.text);
    else if (p.data !== undefined) out.push(JSON.stringify(p.data));
    else if (p.url !== undefined) out.push(`[file ${p.filename ?? p.url}]`);
    else if (p.raw !== undefined) out.push(`[file ${p.filename ?? 'inline'}]`);
  }
  return out.join('\n');
}
