import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';

// Finds where a field path lives in the YAML text, so every issue can name a line and column.

export type PathSegment = string | number;

/** "inference.driver.artifact", "artifacts[0].gateway.api_key". */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

export function findPair(map: unknown, key: string): Pair<unknown, unknown> | undefined {
  if (!isMap(map)) return undefined;
  return map.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key) as
    Pair<unknown, unknown> | undefined;
}

function child(node: unknown, seg: PathSegment): { node?: Node; key?: Node } | undefined {
  if (isMap(node)) {
    const pair = findPair(node, String(seg));
    if (!pair) return undefined;
    return { node: (pair.value ?? undefined) as Node | undefined, key: pair.key as Node };
  }
  if (isSeq(node) && typeof seg === 'number') {
    const item = node.items[seg] as Node | undefined;
    return item ? { node: item } : undefined;
  }
  return undefined;
}

export interface Located {
  /** The node at the path, when the path exists and has a value. */
  node?: Node;
  /** The node whose start is the best place to point at (value, its key, or the nearest ancestor's key). */
  anchor?: Node;
  /** Whether the whole path exists. */
  exists: boolean;
}

/** Walks a path through the document; when it stops early, anchors at the deepest part found. */
export function locate(doc: Document, path: readonly PathSegment[]): Located {
  let node: unknown = doc.contents;
  let anchor: Node | undefined = (doc.contents ?? undefined) as Node | undefined;
  for (const seg of path) {
    const next = child(node, seg);
    if (!next) return { anchor, exists: false };
    anchor = next.node ?? next.key ?? anchor;
    node = next.node;
  }
  return { node: node as Node | undefined, anchor, exists: true };
}

/** The key node of a key inside the map at a path (for unknown-key issues). */
export function locateKey(doc: Document, path: readonly PathSegment[], key: string): Node | undefined {
  const at = locate(doc, path);
  const map = path.length ? at.node : doc.contents;
  return findPair(map, key)?.key as Node | undefined;
}

export function position(node: Node | undefined, lines: LineCounter): { line?: number; column?: number } {
  const start = node?.range?.[0];
  if (start === undefined) return {};
  const pos = lines.linePos(start);
  return { line: pos.line, column: pos.col };
}
