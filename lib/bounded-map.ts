/**
 * A Map that holds at most `limit` entries, for the per-process caches that remember one entry
 * per edge, token or space: setting a key past the limit drops the entry written longest ago (a
 * key written again counts as new). A cache bounded so loses its oldest entries one at a time,
 * where one that starts again empty at its limit turns every later request into a read at once
 * — a burst the size of the whole cache. Reads leave the order alone (lib/lru.ts keeps the most
 * recently used instead, for values computed on a miss).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly limit: number

  constructor(limit: number) {
    super()
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`bad limit ${limit}`)
    this.limit = limit
  }

  override set(key: K, value: V): this {
    super.delete(key)
    super.set(key, value)
    if (this.size > this.limit) {
      const oldest = this.keys().next()
      if (!oldest.done) super.delete(oldest.value)
    }
    return this
  }
}
