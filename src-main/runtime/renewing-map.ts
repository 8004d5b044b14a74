// A Map for entries that come and go all the time (the live tasks, the newest finished ones),
// moved into a fresh Map once many were deleted.
//
// Why: when a Map sheds its deleted entries or grows, V8 copies it into a new table and leaves the
// old one as it was, every entry still in it, pointing to the new one. Garbage, normally. But once
// one of these tables reached the old generation (the Map stood still across two young
// collections, or a full one moved it), each young collection keeps everything that table leads
// to: every table after it and every value any of them held. Every task passing through the Map
// (its messages, status, answer) then survives two young collections, is copied twice, is promoted
// and dies in old space. A fresh Map starts a new chain that nothing old points to.

/** Deletions (beyond twice the entries kept) after which the entries move to a fresh Map. */
const RENEW_AFTER = 256;

export class RenewingMap<K, V> {
  private map = new Map<K, V>();
  private deleted = 0;

  get size(): number {
    return this.map.size;
  }
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  /**
   * Adds or replaces an entry. An insertion is what makes V8 copy the table, so the fresh Map is
   * made here: an iteration still running goes on over the entries as they were.
   */
  set(key: K, value: V): this {
    if (this.deleted >= RENEW_AFTER + 2 * this.map.size) {
      this.map = new Map(this.map);
      this.deleted = 0;
    }
    this.map.set(key, value);
    return this;
  }
  delete(key: K): boolean {
    if (!this.map.delete(key)) return false;
    this.deleted++;
    return true;
  }
  /** Keys, values and entries in insertion order, as a Map gives them. */
  keys(): MapIterator<K> {
    return this.map.keys();
  }
  values(): MapIterator<V> {
    return this.map.values();
  }
  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.map.entries();
  }
}
