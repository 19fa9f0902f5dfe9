/**
 * changes(): the change log after `sinceRv`, oldest first, for one collection (partition
 * `l#<cluster>#<group>/<resource>`) or across spaces (index g1, `l#<group>/<resource>`), with the
 * namespace as a filter. Two rules keep a poller from skipping events:
 * - Settling. resourceVersions are issued before the write that uses them lands, so entry 6 can
 *   appear before entry 5. An entry is handed out only once `settleMs` has passed since its rv was
 *   issued (`ts`), and reading stops at the first unsettled entry; any write that finishes within
 *   `settleMs` of taking its rv is therefore seen in order. A writer whose entry landed later
 *   announces its change again at a fresh rv (late-entries.ts), so no reader misses it.
 * - Expiry. The watermark is read AFTER the entries: the sweep raises it before deleting, so a
 *   `sinceRv` below it is 410 Expired ("too old resource version"), never a silent gap.
 * An entry whose big-object blob has vanished is skipped rather than wedging every watcher.
 * A projection entry (projection-log.ts) expands into one event per copy it lists, all at its rv,
 * rendered from the manifest entry and its body; the namespace filter applies per copy, and
 * `limit` never splits such an entry across calls (a call may return more events than `limit`).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb'
import { badRequest, expired } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { type Item, optNumber, optString, readNumber, readString, s } from './attrs.ts'
import type { StoreContext } from './context.ts'
import { checkCollection, logGsiPk, logPk, padRv } from './keys.ts'
import { readWatermark } from './meta-items.ts'
import { itemObject } from './object-items.ts'
import type { ProjectionChange } from './projection-codec.ts'
import { isProjectionLogItem, projectionChanges, projectionEvents } from './projection-log.ts'
import type { SharedFeed } from './projection-types.ts'
import { sharedUnits, withMemberStates } from './shared-feed.ts'
import { isSharedId } from './shared-manifest.ts'
import { expandShared, type Member, type MemberChange } from './shared-members.ts'
import { GSI_NAME } from './table.ts'
import type { ChangeEvent, ChangesOptions, ChangesResult, ChangeType } from './types.ts'

/** Bodies of projected copies by content hash (ProjectionStore.getBodies). */
export type BodyReader = (hashes: readonly string[]) => Promise<Map<string, KubeObject>>

/**
 * A log item to hand out: for a projection item, the copies it lists that match; for a shared
 * manifest's item, those copies as the member mailbox `member` holds them.
 */
type Unit = {
  item: Item
  changes?: ProjectionChange[]
  member?: SharedFeed
  /** A shared manifest's item on the cross-space feed: its copies, one per member. */
  expanded?: MemberChange[]
}

const PAGE = 500
const TYPES: readonly string[] = ['ADDED', 'MODIFIED', 'DELETED']

function logQuery(ctx: StoreContext, opts: ChangesOptions): QueryCommandInput {
  const values: Item = { ':since': s(padRv(opts.sinceRv)) }
  if (opts.namespace !== undefined) values[':ns'] = s(opts.namespace)
  // Projection entries have no `ns`: their copies are filtered after decoding.
  const filter =
    opts.namespace === undefined ? {} : { FilterExpression: 'ns = :ns OR attribute_exists(chg)' }
  if (opts.cluster === '*') {
    values[':pk'] = s(logGsiPk(opts.group, opts.resource))
    return {
      TableName: ctx.table,
      IndexName: GSI_NAME,
      KeyConditionExpression: 'g1pk = :pk AND g1sk > :since',
      ExpressionAttributeValues: values,
      ...filter,
    }
  }
  values[':pk'] = s(logPk(opts.cluster, opts.group, opts.resource))
  return {
    TableName: ctx.table,
    KeyConditionExpression: 'pk = :pk AND sk > :since',
    ExpressionAttributeValues: values,
    ConsistentRead: true,
    ...filter,
  }
}

function checkOptions(opts: ChangesOptions): void {
  checkCollection(opts)
  if (!Number.isSafeInteger(opts.sinceRv) || opts.sinceRv < 0) {
    throw badRequest(`invalid resourceVersion ${opts.sinceRv}`)
  }
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 1)) {
    throw badRequest(`invalid limit ${opts.limit}`)
  }
}

/**
 * Collects the units a read hands out, in rv order: unsettled entries stop it, `limit` events
 * end it with `more`, and a member mailbox's shared units (shared-feed.ts) go in among its own.
 */
class Collector {
  readonly units: Unit[] = []
  /** The issue time (`ts`) of the unsettled entry that stopped the read, if one did. */
  stoppedAt: number | undefined
  private count = 0
  private readonly horizon: number
  private readonly limit: number | undefined
  private readonly shared: Unit[]
  /** Set for a cross-space read: how it expands shared manifests' items (shared-members.ts). */
  private readonly expand: ((item: Item) => Promise<MemberChange[]>) | undefined
  /** The copies a projection log item lists (projection-log.ts). */
  private readonly listed: (
    item: Item,
    namespace: string | undefined
  ) => Promise<ProjectionChange[]>

  constructor(
    window: { horizon: number; limit: number | undefined },
    shared: Unit[],
    read: {
      listed: (item: Item, namespace: string | undefined) => Promise<ProjectionChange[]>
      expand?: ((item: Item) => Promise<MemberChange[]>) | undefined
    }
  ) {
    this.horizon = window.horizon
    this.limit = window.limit
    this.shared = shared
    this.expand = read.expand
    this.listed = read.listed
  }

  /** Hands out `unit` unless it is unsettled ('stop') or past the limit ('more'). */
  take(unit: Unit): 'stop' | 'more' | 'ok' {
    if (this.unsettled(unit.item)) return 'stop'
    if (this.limit !== undefined && this.count >= this.limit) return 'more'
    this.units.push(unit)
    this.count += unit.expanded?.length ?? unit.changes?.length ?? 1
    return 'ok'
  }

  /** Whether `item` was issued too recently to hand out; if so, it is what stopped the read. */
  private unsettled(item: Item): boolean {
    const ts = readNumber(item, 'ts')
    if (ts <= this.horizon) return false
    this.stoppedAt = ts
    return true
  }

  /** Hands out the shared units below `rv`, or what stopped it. */
  takeShared(rv: number): 'stop' | 'more' | 'ok' {
    while (this.shared.length > 0 && readNumber(this.shared[0]!.item, 'rv') < rv) {
      const took = this.take(this.shared.shift()!)
      if (took !== 'ok') return took
    }
    return 'ok'
  }

  /** Takes one log item read from the collection's own partition. */
  async takeItem(item: Item, namespace: string | undefined): Promise<'stop' | 'more' | 'ok'> {
    const before = this.takeShared(readNumber(item, 'rv'))
    if (before !== 'ok') return before
    if (this.unsettled(item)) return 'stop'
    if (this.expand && isSharedId(optString(item, 'cl') ?? '')) {
      const expanded = await this.expand(item)
      return expanded.length === 0 ? 'ok' : this.take({ item, expanded })
    }
    const changes = isProjectionLogItem(item) ? await this.listed(item, namespace) : undefined
    if (changes?.length === 0) return 'ok'
    return this.take(changes ? { item, changes } : { item })
  }
}

/** What one read of the log hands out, and when the entry that stopped it settles. */
type Entries = { units: Unit[]; more: boolean; settlesAt?: number }

/**
 * Settled entries after sinceRv until `limit` events are reached (a projection entry counts as
 * its matching copies and is never split); `more` when a further settled entry exists.
 */
async function readEntries(
  ctx: StoreContext,
  opts: ChangesOptions,
  polledAt: number
): Promise<Entries> {
  const query = logQuery(ctx, opts)
  const pageLimit =
    opts.limit === undefined || opts.namespace !== undefined ? PAGE : Math.min(PAGE, opts.limit + 1)
  const shared = opts.shared ? await sharedUnits(ctx, opts, opts.shared) : []
  const members = new Map<string, Promise<Member[]>>()
  const expand =
    opts.cluster === '*'
      ? (item: Item) => expandShared(ctx, item, opts.namespace, members)
      : undefined
  const collector = new Collector({ horizon: polledAt - ctx.settleMs, limit: opts.limit }, shared, {
    listed: (item, namespace) => projectionChanges(ctx, item, namespace),
    expand,
  })
  const done = (took: 'stop' | 'more' | 'ok'): Entries => {
    const at = collector.stoppedAt
    return {
      units: collector.units,
      more: took === 'more',
      ...(at === undefined ? {} : { settlesAt: at + ctx.settleMs }),
    }
  }
  let start: Item | undefined
  do {
    const out = await ctx.client.send(
      new QueryCommand({ ...query, Limit: pageLimit, ExclusiveStartKey: start })
    )
    for (const item of out.Items ?? []) {
      const took = await collector.takeItem(item, opts.namespace)
      if (took !== 'ok') return done(took)
    }
    start = out.LastEvaluatedKey
  } while (start)
  return done(collector.takeShared(Number.POSITIVE_INFINITY))
}

async function toEvent(ctx: StoreContext, item: Item): Promise<ChangeEvent | undefined> {
  const type = readString(item, 'type')
  if (!TYPES.includes(type)) return undefined
  const object = await itemObject(ctx, item)
  if (!object) return undefined
  const landedAt = optNumber(item, 'lt')
  return {
    type: type as ChangeType,
    object,
    rv: readNumber(item, 'rv'),
    cluster: readString(item, 'cl'),
    namespace: readString(item, 'ns'),
    ...(landedAt === undefined ? {} : { landedAt }),
  }
}

/** Whether this read follows one of the same cursor recent enough that nothing was swept past it. */
function continuesRecentRead(ctx: StoreContext, opts: ChangesOptions, polledAt: number): boolean {
  const since = opts.previousPollAt
  return since !== undefined && polledAt >= since && polledAt - since < ctx.retentionMs / 2
}

export async function readChanges(
  ctx: StoreContext,
  opts: ChangesOptions,
  getBodies: BodyReader
): Promise<ChangesResult> {
  checkOptions(opts)
  const polledAt = ctx.now()
  const { units, more, settlesAt } = await readEntries(ctx, opts, polledAt)
  if (!continuesRecentRead(ctx, opts, polledAt)) {
    const watermark = await readWatermark(ctx)
    if (opts.sinceRv < watermark) {
      throw expired(`too old resource version: ${opts.sinceRv} (${watermark})`)
    }
  }
  const hashes = units.flatMap((u) => [
    ...(u.changes?.map((c) => c.entry.hash) ?? []),
    ...(u.expanded?.map((x) => x.change.entry.hash) ?? []),
  ])
  const bodies = hashes.length > 0 ? await getBodies(hashes) : new Map<string, KubeObject>()
  await withMemberStates(ctx, [
    ...units.flatMap(({ member, changes }) =>
      member ? (changes ?? []).map((change) => ({ mailbox: member.mailbox, change })) : []
    ),
    ...units.flatMap((u) => u.expanded ?? []),
  ])
  const events = await Promise.all(
    units.map(async ({ item, changes, member, expanded }) => {
      if (expanded)
        return expanded.flatMap((x) => projectionEvents(item, [x.change], bodies, x.mailbox))
      if (changes) return projectionEvents(item, changes, bodies, member?.mailbox)
      const event = await toEvent(ctx, item)
      return event ? [event] : []
    })
  )
  return {
    events: events.flat(),
    more,
    polledAt,
    ...(settlesAt === undefined ? {} : { settlesAt }),
  }
}
