/**
 * What one hub remembers between requests about the data in its store, created once with the
 * store (lib/hub/hub-deps.ts per process or isolate, functions/node-server.ts per app) and carried
 * by its dependencies (`HubDeps.caches`), never held by a module: two hubs in one process, over two
 * stores, never see each other's entries. Each cache's own file says how long an entry is trusted.
 * (Token lookups are cached per key-value store object instead, lib/auth/tokens.ts, because every
 * holder of that store must be able to revoke at once.)
 */
import { BoundedMap } from '../bounded-map.ts'
import { createSliceCache, type SliceCache } from '../placement/slice-cache.ts'
import { createQuotaCache, type QuotaCache } from '../quota/quota-cache.ts'
import { createRbacCache, type RbacCache } from '../rbac/rbac-cache.ts'
import { createRegistryCache, type RegistryCache } from './registry-cache.ts'

/**
 * Per mailbox name: when its lease was last renewed by this hub, its SyncTarget's name, and what
 * the agent said of itself in that renewal (lib/edge/heartbeat.ts `agentKey`; absent: nothing).
 */
export type HeartbeatMemo = Map<string, { checkedAt: number; target?: string; agent?: string }>

/** The most mailboxes the heartbeat memo remembers (twice a 10,000-edge fleet). */
export const HEARTBEAT_MEMO_LIMIT = 20_000

export type HubCaches = {
  /** Each space's served resources (space-registry.ts). */
  registries: RegistryCache
  /** Edge heartbeats already seen (lib/edge/heartbeat.ts). */
  heartbeats: HeartbeatMemo
  /** Per space id, the collections this hub has noted in its index (space-collections.ts). */
  collections: Map<string, Set<string>>
  /** The placement steps' decoded and indexed slice listings (lib/placement/slice-cache.ts). */
  slices: SliceCache
  /** The root space's SpaceQuotas as last read (lib/quota/quotas.ts). */
  quotas: QuotaCache
  /** The RBAC policy as last read, for a hub that authorizes by RBAC (lib/rbac/rbac-cache.ts). */
  rbac: RbacCache
}

export function createHubCaches(): HubCaches {
  return {
    registries: createRegistryCache(),
    heartbeats: new BoundedMap(HEARTBEAT_MEMO_LIMIT),
    collections: new Map(),
    slices: createSliceCache(),
    quotas: createQuotaCache(),
    rbac: createRbacCache(),
  }
}
