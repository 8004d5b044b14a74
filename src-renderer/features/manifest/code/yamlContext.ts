// Where the caret is in a block-style YAML manifest, read from indentation alone (so it works on a
// half-typed line the parser would reject): the path of keys down to the caret's map ("[]" for a
// list element), and whether the caret is on a key or on a value.

export interface YamlContext {
  /** The path to the map (or list) the caret's line belongs to. */
  path: string[];
  /** On a key (or a bare list item), or on the value after `key:`. */
  at: 'key' | 'value';
  /** The key of the line, when the caret is on its value (or hovering it). */
  key?: string;
  /** Offset where the word under the caret starts (what a completion replaces). */
  from: number;
  /** The text typed so far of that word. */
  typed: string;
  /** The line is a list item ("- ..."): its words are elements of the list at `path`. */
  item: boolean;
}

interface LineShape {
  /** Columns of the "- " marks before the content. */
  dashes: number[];
  /** Column where the content (a key or a value) starts. */
  col: number;
  content: string;
}

/** Lines looked at above the caret, at most (a manifest is far shorter). */
const MAX_LINES_UP = 5000;

function shape(line: string): LineShape {
  const m = /^( *)((?:- +)*)(.*)$/.exec(line)!;
  const dashes: number[] = [];
  let c = m[1].length;
  for (const d of m[2].match(/- +/g) ?? []) {
    dashes.push(c);
    c += d.length;
  }
  return { dashes, col: c, content: m[3] };
}

const KEY = /^([A-Za-z_][\w.-]*|"[^"]*"|'[^']*')\s*:(?:\s|$)/;
const unquote = (k: string) => (/^["']/.test(k) ? k.slice(1, -1) : k);
const isBlank = (s: string) => /^\s*(#.*)?$/.test(s);

/** The keys above a line at `col` (the line's own "- " marks at `dashes`), outermost first. */
function parentPath(lines: string[], index: number, col: number, dashes: number[]): string[] | undefined {
  const path: string[] = dashes.map(() => '[]');
  // A map at `limit` (the key column) or a sequence whose dash sits at `limit`.
  let limit = dashes.length ? dashes[0] : col;
  let inSeq = dashes.length > 0;
  for (let i = index - 1, seen = 0; i >= 0 && (limit > 0 || inSeq) && seen < MAX_LINES_UP; i--, seen++) {
    const raw = lines[i];
    if (isBlank(raw)) continue;
    const s = shape(raw);
    const key = KEY.exec(s.content);
    const rest = key ? s.content.slice(key[0].length).trim() : '';
    if (!inSeq && s.dashes.length && s.col === limit) {
      // The first line of the list item this map belongs to.
      path.unshift(...s.dashes.map(() => '[]'));
      limit = s.dashes[0];
      inSeq = true;
      continue;
    }
    // Sibling items of our list put their key right of its dash, so a key at the dash's column is the list's own key.
    const parent = s.col < limit || (inSeq && s.col === limit);
    if (!parent) continue;
    if (!key) return undefined;
    if (rest && !rest.startsWith('#')) return rest.startsWith('|') || rest.startsWith('>') ? undefined : path; // inside a scalar, or flow
    path.unshift(unquote(key[1]));
    if (s.dashes.length) path.unshift(...s.dashes.map(() => '[]'));
    limit = s.dashes.length ? s.dashes[0] : s.col;
    inSeq = s.dashes.length > 0;
  }
  return path;
}

/** The context at an offset, or undefined inside a comment, a block scalar or a flow collection. */
export function yamlContextAt(text: string, pos: number): YamlContext | undefined {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const s = shape(before);
  if (s.content.includes('#')) return undefined;
  const key = KEY.exec(s.content);
  const path = parentPath(lines, lines.length, s.col, s.dashes);
  if (!path) return undefined;
  if (key) {
    const value = s.content.slice(key[0].length);
    if (/^\s*[[{|>]/.test(value)) return undefined;
    const typed = value.trimStart().replace(/^["']/, '');
    return { path, at: 'value', key: unquote(key[1]), from: pos - typed.length, typed, item: s.dashes.length > 0 };
  }
  if (!/^[\w.-]*$/.test(s.content)) return undefined;
  return { path, at: 'key', from: pos - s.content.length, typed: s.content, item: s.dashes.length > 0 };
}

/** The key on a line and the path above it, for the hover over that key (undefined off a key). */
export function yamlKeyAt(
  text: string,
  pos: number,
): { path: string[]; key: string; from: number; to: number } | undefined {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  let lineEnd = text.indexOf('\n', pos);
  if (lineEnd < 0) lineEnd = text.length;
  const line = text.slice(lineStart, lineEnd);
  const s = shape(line);
  const key = KEY.exec(s.content);
  if (!key) return undefined;
  const from = lineStart + s.col;
  const to = from + key[1].length;
  if (pos < from || pos > to) return undefined;
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const path = parentPath(lines, lines.length, s.col, s.dashes);
  return path ? { path, key: unquote(key[1]), from, to } : undefined;
}

/** Lines looked at above and below the caret for the keys its map already has, at most. */
const MAX_SIBLING_LINES = 2000;

/**
 * The keys already written in the map of line `index` whose keys start at column `col` (so
 * completion does not offer them again). Stops at the map's end: a line left of `col`, or the
 * next item of the list the map is an element of.
 */
export function keysBeside(text: string, index: number, col: number): Set<string> {
  const lines = text.split('\n');
  const found = new Set<string>();
  const take = (s: LineShape) => {
    const key = KEY.exec(s.content);
    if (key && s.col === col) found.add(unquote(key[1]));
  };
  // Upwards, unless the caret's own line starts a list item (then nothing above is in its map).
  const startsItem = shape(lines[index] ?? '').dashes.length > 0;
  for (let i = index - 1, seen = 0; !startsItem && i >= 0 && seen < MAX_SIBLING_LINES; i--, seen++) {
    if (isBlank(lines[i])) continue;
    const s = shape(lines[i]);
    if (s.col < col) break;
    take(s);
    if (s.dashes.length && s.col === col) break; // the first line of this list item
  }
  for (let i = index + 1, seen = 0; i < lines.length && seen < MAX_SIBLING_LINES; i++, seen++) {
    if (isBlank(lines[i])) continue;
    const s = shape(lines[i]);
    if (s.col < col || (s.dashes.length && s.dashes[0] < col)) break; // left of the map, or the next item
    take(s);
  }
  return found;
}
