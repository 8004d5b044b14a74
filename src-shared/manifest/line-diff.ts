// Two texts line by line: which lines stayed, which went, which came. Shared by `capsule diff`
// (a unified listing) and the Studio's side-by-side diff view. The common head and tail are
// matched first; the middle with a longest-common-subsequence table, which stays small for
// manifests. A middle too big for the table (over a million cells) is shown as replaced whole.

export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

const MAX_CELLS = 1_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (x.length * y.length > MAX_CELLS) {
    out.push(
      ...x.map((text): DiffLine => ({ kind: 'removed', text })),
      ...y.map((text): DiffLine => ({ kind: 'added', text })),
    );
  } else {
    // lcs[i][j]: the longest common run of x[i..] and y[j..].
    const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        out.push({ kind: 'same', text: x[i++] });
        j++;
      } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1]))
        out.push({ kind: 'removed', text: x[i++] });
      else out.push({ kind: 'added', text: y[j++] });
    }
  }
  out.push(...a.slice(a.length - tail).map((text): DiffLine => ({ kind: 'same', text })));
  return out;
}
