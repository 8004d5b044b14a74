// The part of a found line a search shows: the words searched for, with some text around the
// first of them, and where each searched word stands in it so a view can highlight it. Words
// are matched as the search matches them: letters and digits, any case, accents ignored.

/** Characters kept before the first match, and in the whole snippet at most. */
const BEFORE = 60;
const LENGTH = 200;

/** The words of a search, as lower-case, accent-free strings (at most 20). */
export function searchTerms(query: string): string[] {
  return [...new Set(fold(query).match(/[\p{L}\p{N}_]+/gu) ?? [])].slice(0, 20);
}

/** Lower case without accents, keeping every character's place (one in, one out). */
function fold(text: string): string {
  let out = '';
  for (const ch of text) out += ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().charAt(0) || ch;
  return out;
}

/** A piece of a snippet, marked when it is a searched word. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/** The snippet of `text` around its first searched word, cut with … where it is, in parts. */
export function snippetOf(text: string, query: string): SnippetPart[] {
  const flat = text.replace(/\s+/g, ' ');
  const chars = [...flat];
  const folded = [...fold(flat)];
  const terms = searchTerms(query).map((t) => [...t]);
  const hits: boolean[] = new Array(chars.length).fill(false);
  let first = -1;
  for (const term of terms) {
    for (let i = 0; i + term.length <= folded.length; i++) {
      if (term.every((c, k) => folded[i + k] === c)) {
        for (let k = 0; k < term.length; k++) hits[i + k] = true;
        if (first < 0 || i < first) first = i;
      }
    }
  }
  const start = first > BEFORE ? first - BEFORE : 0;
  const end = Math.min(chars.length, start + LENGTH);
  const parts: SnippetPart[] = [];
  if (start > 0) parts.push({ text: '…', match: false });
  for (let i = start; i < end; i++) {
    const last = parts[parts.length - 1];
    if (last && last.match === hits[i] && last.text !== '…') last.text += chars[i];
    else parts.push({ text: chars[i], match: hits[i] });
  }
  if (end < chars.length) parts.push({ text: '…', match: false });
  return parts;
}
