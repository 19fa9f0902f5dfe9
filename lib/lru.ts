/**
 * A bounded map that computes what it lacks and keeps the most recently used values: past its
 * limit the least recently used key goes first. For per-batch and per-store memos of values
 * that never change once computed (a key names its value for good).
 */
export type Lru<V> = {
  /** The value kept for `key`, computing it with `compute` on a miss. */
  get(key: string, compute: () => V): V
  /** Forgets `key` if it is still `value` (e.g. a promise that failed). */
  forget(key: string, value: V): void
  size(): number
}

export function createLru<V>(limit: number): Lru<V> {
  const kept = new Map<string, V>()
  return {
    get(key, compute) {
      if (kept.has(key)) {
        const hit = kept.get(key) as V
        kept.delete(key)
        kept.set(key, hit)
        return hit
      }
      const value = compute()
      kept.set(key, value)
      if (kept.size > limit) {
        const oldest = kept.keys().next().value
        if (oldest !== undefined) kept.delete(oldest)
      }
      return value
    },
    forget(key, value) {
      if (kept.get(key) === value) kept.delete(key)
    },
    size: () => kept.size,
  }
}
