/**
 * What one hub remembers of the root space's SpaceQuotas (lib/apis/grants.ts), carried by its
 * caches (lib/hub/hub-caches.ts `quotas`), never by a module: the decoded live quotas as read,
 * with the `quotas` epoch read before them (lib/store/epochs.ts) and when. quotas.ts says how long
 * an entry is trusted; `forget` drops it at once (this hub wrote a SpaceQuota).
 */
import type { SpaceQuota } from '../apis/grants.ts'

export type QuotaEntry = { quotas: readonly SpaceQuota[]; epoch: number; at: number }

export type QuotaCache = {
  get(): QuotaEntry | undefined
  set(entry: QuotaEntry): void
  forget(): void
}

export function createQuotaCache(): QuotaCache {
  let entry: QuotaEntry | undefined
  return {
    get: () => entry,
    set: (e) => {
      entry = e
    },
    forget: () => {
      entry = undefined
    },
  }
}
