import type { Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { IssueView } from '../../../../src-shared/contract';

// The checker's issues as editor diagnostics: each underlines the token at its line and column
// (a key, a value, a quote), or marks the line's end when the issue points past the text.

const TOKEN = /^(\$\{[^}\n]*\}|"[^"\n]*"?|'[^'\n]*'?|[^\s#:]+(?::(?!\s|$)[^\s#:]*)*)/;

export function toDiagnostics(doc: Text, issues: readonly IssueView[]): Diagnostic[] {
  return issues.map((i) => {
    const line = doc.line(Math.min(Math.max(i.line ?? 1, 1), doc.lines));
    const from = Math.min(line.from + Math.max((i.column ?? 1) - 1, 0), line.to);
    const token = TOKEN.exec(doc.sliceString(from, line.to))?.[0] ?? '';
    return {
      from,
      to: from + token.length,
      severity: 'error',
      source: i.path || undefined,
      message: `${i.message}${i.hint ? ` — ${i.hint}` : ''}`,
    };
  });
}
