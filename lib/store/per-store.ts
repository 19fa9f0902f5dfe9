/**
 * One value per key-value store object (a cache of what that store holds), made on first use and
 * dropped with the store: keyed by the object itself, so whoever holds the store (the hub, a
 * maintenance tool, the edge API) reaches the same value, and a hub over another store never does.
 * Used by the token cache (lib/auth/tokens.ts) and the mailbox check (lib/hub/mailbox-space.ts);
 * `perObject` is the same for any object, as the store's request batchers keep one per context.
 */
import type { KvStore } from './types.ts'

/**
 * A getter of one value per object, `create`d for an object the first time it is asked for and
 * dropped with it (also per store context: the store's request batchers, invocation-batcher.ts).
 */
export function perObject<K extends object, T>(create: (key: K) => T): (key: K) => T {
  const values = new WeakMap<K, T>()
  return (key) => {
    if (values.has(key)) return values.get(key) as T
    const value = create(key)
    values.set(key, value)
    return value
  }
}

/** A getter of the value of each store, `create`d for a store the first time it is asked for. */
export function perStore<T>(create: (kv: KvStore) => T): (kv: KvStore) => T {
  return perObject(create)
}
