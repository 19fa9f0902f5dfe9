/**
 * One value per key-value store object (a cache of what that store holds), made on first use and
 * dropped with the store: keyed by the object itself, so whoever holds the store (the hub, a
 * maintenance tool, the edge API) reaches the same value, and a hub over another store never does.
 * Used by the token cache (lib/auth/tokens.ts) and the mailbox check (lib/hub/mailbox-space.ts).
 */
import type { KvStore } from './types.ts'

/** A getter of the value of each store, `create`d for a store the first time it is asked for. */
export function perStore<T>(create: (kv: KvStore) => T): (kv: KvStore) => T {
  const values = new WeakMap<KvStore, T>()
  return (kv) => {
    if (values.has(kv)) return values.get(kv) as T
    const value = create(kv)
    values.set(kv, value)
    return value
  }
}
