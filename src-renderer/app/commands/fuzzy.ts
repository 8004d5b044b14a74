// Fuzzy matching for the command palette: the query's characters must appear in order in the
// text (case-insensitive); runs of consecutive characters, starts of words and a match at the very
// start score higher, gaps and a long text lower. Pure; bounded by the text and query lengths
// (queries over 64 characters are cut: nobody types more to find a capsule).

export interface FuzzyMatch {
  score: number;
  /** Indices in the text of the matched characters, for highlighting. */
  indices: number[];
}

const MAX_QUERY = 64;
const isBoundary = (text: string, i: number) =>
  i === 0 || /[\s._\-/:]/.test(text[i - 1]) || (/[a-z]/.test(text[i - 1]) && /[A-Z]/.test(text[i]));

/** The best-scoring way `query` matches `text` (greedy from each start), or null when it does not. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.trim().toLowerCase().slice(0, MAX_QUERY);
  if (q.length === 0) return { score: 0, indices: [] };
  const t = text.toLowerCase();
  let best: FuzzyMatch | null = null;
  // Try every place the first character occurs: "wr" in "worker-writer" should find "writer".
  for (let start = t.indexOf(q[0]); start >= 0; start = t.indexOf(q[0], start + 1)) {
    const indices = [start];
    let ti = start + 1;
    for (let qi = 1; qi < q.length; qi++) {
      const found = t.indexOf(q[qi], ti);
      if (found < 0) return best;
      indices.push(found);
      ti = found + 1;
    }
    const score = scoreOf(text, indices);
    if (!best || score > best.score) best = { score, indices };
  }
  return best;
}

function scoreOf(text: string, indices: number[]): number {
  let score = 0;
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    score += 1;
    if (k > 0 && indices[k - 1] === i - 1) score += 5;
    else if (k > 0) score -= Math.min(3, (i - indices[k - 1] - 1) * 0.5);
    if (isBoundary(text, i)) score += 3;
  }
  if (indices[0] === 0) score += 4;
  return score - text.length * 0.05;
}

/** Items that match, best first (ties keep the given order), at most `limit`. */
export function fuzzyFilter<T>(
  query: string,
  items: readonly T[],
  textOf: (item: T) => string,
  limit = 50,
): { item: T; match: FuzzyMatch }[] {
  const out: { item: T; match: FuzzyMatch; order: number }[] = [];
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, textOf(item));
    if (match) out.push({ item, match, order });
  });
  out.sort((a, b) => b.match.score - a.match.score || a.order - b.order);
  return out.slice(0, limit).map(({ item, match }) => ({ item, match }));
}
