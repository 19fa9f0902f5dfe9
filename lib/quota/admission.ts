/**
 * Where the hub's write path (lib/hub/write.ts) meets the SpaceQuotas: before an object is
 * created, every quota holding its space (quotas.ts) takes one more object in its counter of that
 * space (usage.ts), refusing with kube's 403 `exceeded quota` (exceeded.ts) when the create would
 * pass a bound and `enforce` is set (the API's writes; the steps' own writes, `enforce` unset,
 * are counted but never refused: a tenant at its bound does not stop the control plane writing
 * into its space). A create that then fails for certain (a 4xx from the store: the name is taken,
 * the key does not fit) gives its reservations back; one whose outcome is unknown keeps them (a
 * count too high, never too low). After an object is removed, its quotas count one fewer; a
 * failure there only logs (the object is gone, the count stays high).
 *
 * Cost: with no SpaceQuota in root, nothing but the epoch read quotas.ts shares per second and
 * store; in a space a quota holds, one read and one conditional put per quota and write (and
 * the space counted once, when its counter is first needed).
 */
import type { SpaceQuota } from '../apis/grants.ts'
import { isApiError } from '../errors.ts'
import type { HubDeps } from '../hub/deps.ts'
import { resolveSpaceCached } from '../hub/space-cache.ts'
import type { ObjectKey } from '../store/types.ts'
import { countKey, type Exceeded, OBJECTS_KEY, quotaExceeded } from './exceeded.ts'
import { counterOf, quotasOf, spaceQuotas } from './quotas.ts'
import { type CounterAt, changeUsage, countSpace, type Usage, type UsageChange } from './usage.ts'

/** What a create took, to give back if it fails for certain. */
export type Reservation = { release(): Promise<void> }

const NOTHING: Reservation = { release: async () => undefined }

/** The bounds of `quota` that one more object of `key`'s resource would pass. */
export function exceededBy(quota: SpaceQuota, usage: Usage, key: ObjectKey): Exceeded[] {
  const out: Exceeded[] = []
  const max = quota.spec.maxObjects
  if (max !== undefined && usage.objects + 1 > max)
    out.push({ key: OBJECTS_KEY, used: usage.objects, limited: max })
  for (const r of quota.spec.resources ?? []) {
    if (r.group !== key.group || r.resource !== key.resource) continue
    const used = usage.resources[`${key.group}/${key.resource}`] ?? 0
    if (used + 1 > r.max) out.push({ key: countKey(r.group, r.resource), used, limited: r.max })
  }
  return out
}

const changeOf = (key: ObjectKey, delta: 1 | -1): UsageChange => ({
  collection: `${key.group}/${key.resource}`,
  delta,
})

async function giveBack(deps: HubDeps, taken: readonly CounterAt[], key: ObjectKey) {
  for (const at of taken) {
    try {
      await changeUsage(deps, at, changeOf(key, -1), { count: countNever })
    } catch (e) {
      deps.log.warn('quota release failed; the count stays high', { counter: at, error: e })
    }
  }
}

const countNever = (): Promise<Usage> => {
  throw new Error('a decrease never counts a space')
}

/** Before creating the object at `key` in `space`: reserve it in every quota holding the space. */
export async function reserveCreate(
  deps: HubDeps,
  space: { id: string; path: string },
  key: ObjectKey,
  enforce: boolean
): Promise<Reservation> {
  const quotas = quotasOf(await spaceQuotas(deps), space.path)
  if (quotas.length === 0) return NOTHING
  let counted: Promise<Usage> | undefined
  const count = () => {
    counted ??= countSpace(deps, space.id)
    return counted
  }
  const taken: CounterAt[] = []
  try {
    for (const quota of quotas) {
      const at = counterOf(quota, space.id)
      const admit = (usage: Usage) => {
        const exceeded = exceededBy(quota, usage, key)
        if (exceeded.length > 0)
          throw quotaExceeded(
            { group: key.group, resource: key.resource, name: key.name },
            quota.metadata.name ?? '',
            exceeded
          )
      }
      await changeUsage(deps, at, changeOf(key, 1), { ...(enforce ? { admit } : {}), count })
      taken.push(at)
    }
  } catch (e) {
    await giveBack(deps, taken, key)
    throw e
  }
  return { release: () => giveBack(deps, taken, key) }
}

/** A create's failure that certainly stored nothing (the store refused it), so it gives back. */
export const storedNothing = (e: unknown) => isApiError(e) && e.code >= 400 && e.code < 500

/** After the object at `key` was removed: its space's quotas count one fewer. */
export async function freeRemoved(deps: HubDeps, key: ObjectKey): Promise<void> {
  try {
    const quotas = await spaceQuotas(deps)
    if (quotas.length === 0) return
    const space = await resolveSpaceCached(deps.kv, key.cluster, deps.now().getTime())
    if (!space) return
    const taken = quotasOf(quotas, space.path).map((q) => counterOf(q, space.id))
    await giveBack(deps, taken, key)
  } catch (e) {
    deps.log.warn('quota release failed; the count stays high', { key, error: e })
  }
}
