/**
 * The SpaceQuotas a create or delete must honour, known without a store request in the common
 * case: the root space's live SpaceQuotas (lib/apis/grants.ts; those being deleted count as gone,
 * invalid ones are skipped) are read once and trusted while the `quotas` epoch
 * (lib/store/epochs.ts, itself read at most once a second per store) stands where it stood before
 * that read, for at most QUOTA_TRUST_MS. Every SpaceQuota write moves the epoch (`quotaWritten`,
 * called by lib/hub/write.ts): the hub that wrote it knows at once, every other one within
 * EPOCH_MAX_AGE_MS. When the epoch cannot be read nothing is trusted (the list is read again).
 *
 * Which spaces a quota holds: the paths and `:*` subtrees of `spec.spaces` (a subtree does not
 * include its own root, as for Tokens), never `root:espw` or below (mailboxes: what the steps and
 * the edges write there is not a tenant's). Each quota keeps one usage counter per space, under
 * its uid and a hash of its `spec.spaces` (usage.ts), so a space that leaves a quota and comes
 * back, or a quota deleted and made again, is counted afresh instead of trusting a count nobody
 * kept meanwhile.
 */
import { decodeEach } from '../apis/decode.ts'
import {
  GRANT_GROUP,
  SPACE_QUOTAS_RESOURCE,
  type SpaceQuota,
  SpaceQuotaSchema,
} from '../apis/grants.ts'
import { scopeCovers } from '../auth/tokens.ts'
import { fnv1a } from '../fnv.ts'
import type { HubDeps } from '../hub/deps.ts'
import { bumpEpoch, currentEpoch } from '../store/epochs.ts'
import type { ObjectKey } from '../store/types.ts'
import { isServiceProviderPath } from '../tenancy/policy.ts'

/** How long a read of the quotas is trusted at most, whatever the epoch (ms). */
export const QUOTA_TRUST_MS = 60_000

type QuotaDeps = Pick<HubDeps, 'objects' | 'kv' | 'caches' | 'now'>

/** The live SpaceQuotas of root, as this hub knows them (see the header). */
export async function spaceQuotas(deps: QuotaDeps): Promise<readonly SpaceQuota[]> {
  const now = deps.now().getTime()
  // The epoch before the list: a SpaceQuota written after this read always untrusts the entry.
  const epoch = await currentEpoch(deps.kv, 'quotas', now)
  const hit = deps.caches.quotas.get()
  if (hit && epoch === hit.epoch && now >= hit.at && now - hit.at < QUOTA_TRUST_MS)
    return hit.quotas
  const list = await deps.objects.list({
    cluster: 'root',
    group: GRANT_GROUP,
    resource: SPACE_QUOTAS_RESOURCE,
    itemsOnly: true,
  })
  const live = list.items.filter((o) => !o.metadata.deletionTimestamp)
  const quotas = decodeEach(SpaceQuotaSchema, live, () => undefined)
  if (epoch === undefined) deps.caches.quotas.forget()
  else deps.caches.quotas.set({ quotas, epoch, at: now })
  return quotas
}

/** Whether the quota holds the space at `path`. */
export function covers(quota: SpaceQuota, path: string): boolean {
  if (isServiceProviderPath(path)) return false
  return quota.spec.spaces.some((s) => scopeCovers(s, path))
}

/** The quotas holding the space at `path`, in name order (the first refusing one is named). */
export function quotasOf(quotas: readonly SpaceQuota[], path: string): SpaceQuota[] {
  return quotas
    .filter((q) => covers(q, path))
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
}

/** Where a quota's counter of one space lives in the key-value store (usage.ts). */
export function counterOf(quota: SpaceQuota, spaceId: string): { ns: string; key: string } {
  const spaces = [...quota.spec.spaces].sort().join(',')
  return {
    ns: `quota-usage/${quota.metadata.uid ?? quota.metadata.name ?? ''}`,
    key: `${fnv1a(spaces).toString(36)}/${spaceId}`,
  }
}

/** True for a key of root's SpaceQuotas. */
export const isQuotaKey = (key: ObjectKey) =>
  key.cluster === 'root' && key.group === GRANT_GROUP && key.resource === SPACE_QUOTAS_RESOURCE

/** After a write of a SpaceQuota: this hub forgets its list, every other one follows the epoch. */
export async function quotaWritten(deps: QuotaDeps, key: ObjectKey): Promise<void> {
  if (!isQuotaKey(key)) return
  deps.caches.quotas.forget()
  await bumpEpoch(deps.kv, 'quotas')
}
