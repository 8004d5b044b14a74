// Where a YAML syntax error is, as a person needs it: the yaml parser reports an unclosed quote
// where it gave up (often the end of the file), but the mistake is on the line the quote opened.
// Shared by the core's loader and the editor's as-you-type check, so both point at the same line.

/** The offset of the quote left open, when the error is an unclosed quote and the quote is found. */
export function openingQuote(source: string, end: number, message: string): number | undefined {
  const quote = message.includes('"quote') ? '"' : message.includes("'quote") ? "'" : undefined;
  if (!quote) return undefined;
  let lineStart = source.lastIndexOf('\n', end - 1) + 1;
  for (;;) {
    const lineEnd = source.indexOf('\n', lineStart);
    const line = source.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
    if (line.split(quote).length % 2 === 0) return lineStart + line.indexOf(quote);
    if (lineStart === 0) return undefined;
    lineStart = source.lastIndexOf('\n', lineStart - 2) + 1;
  }
}

/** A yaml parse error as both checkers report it: the offset to point at and the message. */
export function describeSyntaxError(
  source: string,
  e: { code: string; pos: [number, number]; message: string },
): { offset: number; message: string } {
  const opened = e.code === 'MISSING_CHAR' ? openingQuote(source, e.pos[0], e.message) : undefined;
  return {
    offset: opened ?? e.pos[0],
    message: `YAML syntax error: ${e.message.split('\n')[0]}${opened !== undefined ? ' (the quote opened here)' : ''}`,
  };
}
