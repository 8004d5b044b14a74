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

/** The parts of a yaml library error the wording needs (its `code` is one of the library's ErrorCode values). */
export interface YamlErrorLike {
  code: string;
  message: string;
  linePos?: readonly { line: number; col: number }[];
}

// Plain words for the mistakes people make most, by the library's code and (where one code covers
// several mistakes) its sentence; any other error keeps the library's own sentence.
function plainWords(code: string, message: string): string | undefined {
  if (code === 'MISSING_CHAR' || code === 'BAD_INDENT') {
    if (/end with a \]/.test(message)) return 'a [ list is not closed with ]';
    if (/end with a \}/.test(message)) return 'a { map is not closed with }';
    if (/"quote/.test(message)) return 'a " quote is not closed';
    if (/'quote/.test(message)) return "a ' quote is not closed";
  }
  if (code === 'BAD_INDENT' && /mapping items must start at the same column/.test(message))
    return 'this key is not indented like the keys before it';
  if (code === 'BAD_INDENT' && /sequence items must start at the same column/.test(message))
    return 'this list item is not indented like the items before it';
  if (code === 'TAB_AS_INDENT') return 'a tab is used to indent; YAML indents with spaces only';
  if (code === 'DUPLICATE_KEY') return 'this key appears twice in the same map';
  if (code === 'MULTILINE_IMPLICIT_KEY') return 'a key must fit on one line (is a ":" missing, or a quote not closed?)';
  return undefined;
}

/**
 * What a yaml parse error says, in one plain sentence without its place: the library's message ends
 * with " at line N, column M:" and a code frame, which the views replace by their own line and column.
 */
export function yamlErrorMessage(e: YamlErrorLike): string {
  const own = e.message
    .split('\n')[0]
    .replace(/ at line \d+, column \d+:?\s*$/, '')
    .replace(/:\s*$/, '');
  return plainWords(e.code, own) ?? own;
}

/** A yaml parse error as one line of text: "line 30, column 1: a [ list is not closed with ]". */
export function formatYamlError(e: YamlErrorLike): string {
  const at = e.linePos?.[0];
  return at ? `line ${at.line}, column ${at.col}: ${yamlErrorMessage(e)}` : yamlErrorMessage(e);
}

/** A yaml parse error as both checkers report it: the offset to point at and the message. */
export function describeSyntaxError(
  source: string,
  e: { code: string; pos: [number, number]; message: string },
): { offset: number; message: string } {
  const opened = e.code === 'MISSING_CHAR' ? openingQuote(source, e.pos[0], e.message) : undefined;
  return {
    offset: opened ?? e.pos[0],
    message: `YAML syntax error: ${yamlErrorMessage(e)}${opened !== undefined ? ' (the quote opened here)' : ''}`,
  };
}
