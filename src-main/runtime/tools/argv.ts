// Splits a command line into argv the way a POSIX shell splits words, and nothing more: quotes and
// backslashes group characters, but no variable, glob, pipe or redirection is ever interpreted,
// since the command is spawned with an argv array. Unquoted shell operators are refused with a
// clear error rather than passed on as odd arguments, so a model learns there is no shell here.

const OPERATORS = new Set(['|', '&', ';', '<', '>', '`']);

export function splitCommand(line: string): { ok: true; argv: string[] } | { ok: false; error: string } {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i];
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 < line.length) word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else if (OPERATORS.has(ch) || (ch === '$' && line[i + 1] === '(')) {
      return {
        ok: false,
        error: `"${ch === '$' ? '$(' : ch}" is a shell operator; commands run without a shell (pass one program and its arguments)`,
      };
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) return { ok: false, error: `unclosed ${quote} quote` };
  if (inWord) argv.push(word);
  if (!argv.length) return { ok: false, error: 'empty command' };
  return { ok: true, argv };
}

/** Quotes argv back into one line for traces and residue (single quotes where needed). */
export function joinArgv(argv: readonly string[]): string {
  return argv.map((a) => (a && /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
