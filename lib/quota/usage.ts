/**
 * A quota's usage counter of one space: a key-value entry (quotas.ts `counterOf`) holding how many
 * objects the space holds, in all and per `<group>/<resource>`. Every change is one conditional
 * put on the version read (kv-store.ts), so concurrent writers never lose a count: one that lost
 * the race reads again and decides again (a refusal is decided on the value it will replace).
 *
 * An absent counter is made by counting the space (every collection its index names, or that its
 * registry serves when it keeps no index: lib/hub/space-collections.ts), put only if still
 * absent; a writer that loses that race reads the winner's. A decrease never makes a counter (a
 * delete in a space nobody counted yet: the count made later sees it gone).
 *
 * Counts err only upwards: a reservation whose object did not land for a reason the writer cannot
 * see (a crash, an unknown outcome) stays counted, so a quota can be tighter than it should by
 * such writes, never looser. Deleting and re-creating the SpaceQuota counts afresh.
 */
import { isApiError, tooManyRequests } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import { collectionsOf } from '../hub/space-collections.ts'
import { registryForSpace } from '../hub/space-registry.ts'

export type Usage = { objects: number; resources: Record<string, number> }

/** Where a counter lives (quotas.ts `counterOf`). */
export type CounterAt = { ns: string; key: string }

/** One object more (1) or fewer (-1) in `collection` (`<group>/<resource>`). */
export type UsageChange = { collection: string; delta: 1 | -1 }

/** Attempts of one change before answering 429 (each a read and a conditional put). */
export const USAGE_ATTEMPTS = 64

type UsageDeps = HubDeps

/** What the space holds now, counted collection by collection (items only, no counter read). */
export async function countSpace(deps: UsageDeps, spaceId: string): Promise<Usage> {
  const indexed = await collectionsOf(deps.kv, spaceId)
  const collections = indexed
    ? [...indexed].map((c) => {
        const at = c.lastIndexOf('/')
        return { group: c.slice(0, at), resource: c.slice(at + 1) }
      })
    : (await registryForSpace(deps, spaceId)).all()
  const usage: Usage = { objects: 0, resources: {} }
  for (const { group, resource } of collections) {
    const list = await deps.objects.list({ cluster: spaceId, group, resource, itemsOnly: true })
    if (list.items.length === 0) continue
    usage.objects += list.items.length
    usage.resources[`${group}/${resource}`] = list.items.length
  }
  return usage
}

/** `usage` after `change` (never below 0). */
export function applyChange(usage: Usage, change: UsageChange): Usage {
  const was = usage.resources[change.collection] ?? 0
  const resources = { ...usage.resources, [change.collection]: Math.max(0, was + change.delta) }
  if (resources[change.collection] === 0) delete resources[change.collection]
  return { objects: Math.max(0, usage.objects + change.delta), resources }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const isAbsentRace = (e: unknown) => isApiError(e) && e.reason === 'AlreadyExists'
const isLostRace = (e: unknown) => isApiError(e) && e.code === 409 && e.reason === 'Conflict'

/**
 * Applies `change` to the counter at `at`. `admit` sees the usage the change would replace and
 * throws to refuse it (nothing is written then). `count` makes an absent counter (see the header).
 * Answers whether the counter moved (false: a decrease of an absent counter).
 */
export async function changeUsage(
  deps: UsageDeps,
  at: CounterAt,
  change: UsageChange,
  r: { admit?: (before: Usage) => void; count: () => Promise<Usage> }
): Promise<boolean> {
  for (let attempt = 0; attempt < USAGE_ATTEMPTS; attempt++) {
    let entry = await deps.kv.get<Usage>(at.ns, at.key)
    if (!entry) {
      if (change.delta < 0) return false
      const counted = await r.count()
      try {
        entry = {
          key: at.key,
          value: counted,
          version: await deps.kv.put(at.ns, at.key, counted, null),
        }
      } catch (e) {
        if (!isAbsentRace(e)) throw e
        continue
      }
    }
    r.admit?.(entry.value)
    try {
      await deps.kv.put(at.ns, at.key, applyChange(entry.value, change), entry.version)
      return true
    } catch (e) {
      if (!isLostRace(e)) throw e
      // Jittered, growing a little: racing writers of one space spread out instead of colliding.
      await sleep(Math.random() * Math.min(5 + attempt, 25))
    }
  }
  throw tooManyRequests(
    `too many concurrent writes to the object count of ${at.key.slice(at.key.indexOf('/') + 1)}; try again`,
    1
  )
}
