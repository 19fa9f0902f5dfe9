/**
 * Change-log entries of manifest writes. One write touching K group/resources of a mailbox puts K
 * items, one per collection partition `l#<mailbox>#<group>/<resource>`, all with the write's rv as
 * sort key, `type` PROJECTION, `ts` (when the rv was issued, for settling), `cl`, the g1 keys of
 * the cross-space feed and `expiresAt`, like ordinary log entries (object-items.ts), but no `ns`:
 * instead `chg` holds the encoded list of copies the write added, changed or removed (for removed
 * ones, the last entry), each with the copy's state when it has one (copy-state writes log their
 * copies as MODIFIED with the new state; manifest writes carry the state of the copies they
 * change). `readChanges` expands such an item into one event per listed copy.
 */
import type { KubeObject } from '../kube/types.ts'
import {
  b,
  type Item,
  n,
  optBytes,
  optNumber,
  optString,
  readNumber,
  readString,
  s,
} from './attrs.ts'
import { type StoreContext, TTL_SLACK_MS } from './context.ts'
import { logGsiPk, logPk, padRv } from './keys.ts'
import { decodeChanges, encodeChanges, type ProjectionChange } from './projection-codec.ts'
import { renderProjected } from './projection-render.ts'
import type { ChangeEvent } from './types.ts'

export const PROJECTION_TYPE = 'PROJECTION'

/** The log items recording `changes`, all written at `rv`, one per group/resource. */
export async function projectionLogItems(
  ctx: StoreContext,
  mailbox: string,
  changes: ProjectionChange[],
  at: { rv: number; ts: number }
): Promise<Item[]> {
  const byCollection = new Map<string, ProjectionChange[]>()
  for (const c of changes) {
    const pk = logPk(mailbox, c.entry.group, c.entry.resource)
    byCollection.set(pk, [...(byCollection.get(pk) ?? []), c])
  }
  return Promise.all(
    [...byCollection].map(async ([pk, list]): Promise<Item> => {
      const { group, resource } = list[0]!.entry
      const what = `the change list of ${resource} in mailbox ${mailbox} at ${at.rv}`
      return {
        pk: s(pk),
        sk: s(padRv(at.rv)),
        type: s(PROJECTION_TYPE),
        rv: n(at.rv),
        ts: n(at.ts),
        cl: s(mailbox),
        g1pk: s(logGsiPk(group, resource)),
        g1sk: s(padRv(at.rv)),
        expiresAt: n(Math.ceil((at.ts + ctx.retentionMs + TTL_SLACK_MS) / 1000)),
        chg: b(await encodeChanges(list, what)),
      }
    })
  )
}

/** `items` stamped with `lt`, now: the write they record has landed (list-marks.ts). */
export function landedNow(ctx: StoreContext, items: Item[]): Item[] {
  const lt = n(ctx.now())
  return items.map((item) => ({ ...item, lt }))
}

export function isProjectionLogItem(item: Item): boolean {
  return optString(item, 'type') === PROJECTION_TYPE
}

/**
 * The copies a projection log item lists, restricted to `namespace` when given; decoded once per
 * store when it keeps a ChangeListCache (change-list-cache.ts).
 */
export async function projectionChanges(
  ctx: Pick<StoreContext, 'changeLists'>,
  item: Item,
  namespace: string | undefined
): Promise<ProjectionChange[]> {
  const data = optBytes(item, 'chg')
  if (!data) return []
  const cache = ctx.changeLists
  const itemKey = `${readString(item, 'pk')}\u0000${readString(item, 'sk')}`
  const all = cache
    ? await cache.get(itemKey, () => decodeChanges(data))
    : await decodeChanges(data)
  return namespace === undefined ? all : all.filter((c) => c.entry.namespace === namespace)
}

/** One event per change; a change whose body is gone is skipped rather than wedging watchers. */
export function projectionEvents(
  item: Item,
  changes: ProjectionChange[],
  bodies: Map<string, KubeObject>,
  /** The member mailbox whose copies a shared manifest's item lists (shared-feed.ts). */
  member?: string
): ChangeEvent[] {
  const mailbox = member ?? readString(item, 'cl')
  const rv = readNumber(item, 'rv')
  return changes.flatMap(({ type, entry, state }) => {
    const body = bodies.get(entry.hash)
    if (!body) return []
    const object = renderProjected(mailbox, entry, body, state)
    const landedAt = optNumber(item, 'lt')
    return [
      {
        type,
        object,
        rv,
        cluster: mailbox,
        namespace: entry.namespace,
        ...(landedAt === undefined ? {} : { landedAt }),
      },
    ]
  })
}
