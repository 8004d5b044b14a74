// Masking for streamed text. The writer masks each trace line, but a model that echoes a secret
// while streaming spreads it over several `frame` lines, and joining them would give it back. A
// stream mask sits in front of the frames: it masks whole secrets in what it has, and holds back
// the longest tail that could still become one (at most the longest secret less one character)
// until the next delta or the end of the stream decides. No sequence of frames it emits holds a
// secret, and in between secrets nothing is held at all. Held text stays within about twice the
// longest secret.

export interface StreamMask {
  /** The text that may go out now, for one more delta of the stream ('' while it holds back). */
  push(delta: string): string;
  /** What is still held at the end of the stream (never a whole secret). */
  end(): string;
}

/** The length of the longest tail of text that is a proper start of a secret. */
function undecidedTail(text: string, secrets: readonly string[]): number {
  let best = 0;
  for (const s of secrets) {
    for (let k = Math.min(s.length - 1, text.length); k > best; k--) {
      if (text.endsWith(s.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}

/** Where whole secrets sit in text: sorted, overlapping ones merged (one secret inside another is one span). */
function spansOf(text: string, secrets: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const s of secrets)
    for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1)) found.push([i, i + s.length]);
  if (found.length < 2) return found;
  found.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [found[0]];
  for (const [a, b] of found.slice(1)) {
    const last = merged[merged.length - 1];
    if (a < last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** text up to `cut`, each span of a secret written as ***. */
function render(text: string, spans: Array<[number, number]>, cut: number): string {
  let out = '';
  let at = 0;
  for (const [a, b] of spans) {
    if (a >= cut) break;
    out += `${text.slice(at, a)}***`;
    at = b;
  }
  return out + text.slice(at, cut);
}

/** A mask for one stream; undefined when there is nothing to mask (frames then go out as they come). */
export function createStreamMask(secrets: readonly string[]): StreamMask | undefined {
  // Same floor as the writer: shorter values are not masked anywhere.
  const list = [...new Set(secrets)].filter((s) => s.length >= 4);
  if (!list.length) return undefined;
  const maxHeld = 2 * Math.max(...list.map((s) => s.length));
  let held = '';
  return {
    push(delta) {
      const text = held + delta;
      const spans = spansOf(text, list);
      const undecided = text.length - undecidedTail(text, list);
      let cut = undecided;
      // A whole secret that reaches into the undecided tail goes out with it, later, as one span.
      const crossing = spans.find(([a, b]) => a < cut && b > cut);
      if (crossing) cut = crossing[0];
      if (crossing && text.length - cut > maxHeld) {
        // Overlapping secrets chained without end (aaaa… for "aaaa") would be held for ever: the
        // part before the undecided tail goes out now, masked; what follows starts a new span.
        crossing[1] = undecided;
        cut = undecided;
      }
      held = text.slice(cut);
      return render(text, spans, cut);
    },
    end() {
      const text = held;
      held = '';
      return render(text, spansOf(text, list), text.length);
    },
  };
}
