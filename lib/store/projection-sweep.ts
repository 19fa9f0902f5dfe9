/**
 * Removing projection items nothing needs any more, in passes that span cron ticks (each tick a
 * bounded step; the state between steps is small enough for one key-value item, kept by the
 * caller). A pass has three stages, each resuming at a Scan cursor:
 *
 * 1. `mark`: one Scan notes in a Bloom filter (bloom.ts) every body hash a manifest or a
 *    projection change-log entry references.
 * 2. `collect`: a second Scan notes them again, collects the bodies the filter does not hold that
 *    were last confirmed (`ts`) before the pass's cut — its start minus the store's retention — and
 *    sweeps copy states (projection-sweep-items.ts).
 * 3. `delete`: candidates the filter still does not hold are deleted on the condition that their
 *    `ts` is still before the cut.
 *
 * Why no referenced body goes: a writer that references a body at time w has confirmed it since
 * w minus half the retention (projection-bodies.ts), so any reference made after the pass began
 * keeps the body's `ts` past the cut and fails the delete's condition. A reference that existed
 * when the pass began and still exists at the delete was seen: a manifest holding it through the
 * `mark` Scan was read there, and a log entry (which keeps a removed copy's hash for its DELETED
 * event) written before `collect` began was there for the `collect` Scan. False positives of the
 * filter only keep garbage until a later pass (each pass draws a new seed). The store's own clock
 * and retention are used, never the sweep's overrides, because writers' body caches rely on them.
 */
import { ScanCommand } from '@aws-sdk/client-dynamodb'
import { type Item, n, s } from './attrs.ts'
import { type Bloom, loadBloom, newBloom } from './bloom.ts'
import type { StoreContext } from './context.ts'
import { bodyPk, SINGLE_SK } from './keys.ts'
import { STATE_PK_PREFIX } from './projection-state.ts'
import { deleteIf, isSharedMark, sharedOfMark, sweepPage } from './projection-sweep-items.ts'
import { SHARED_PK_PREFIX, sharedKey } from './shared-manifest.ts'
import { cursorOf, type SweepCursor, startOf } from './sweep.ts'

export type BodySweepState = {
  stage: 'mark' | 'collect' | 'delete'
  /** Where the current stage's Scan resumes; absent: at the start of the table. */
  cursor?: SweepCursor
  /** When the pass began, by the store's clock (ms). */
  began: number
  seed: number
  /** The filter of referenced hashes (bloom.ts `save()`). */
  filter: string
  /** Unreferenced old bodies found so far (at most MAX_CANDIDATES per pass). */
  candidates: string[]
}

export type BodySweepStep = {
  /** Where the next step resumes; absent once the pass is over. */
  state?: BodySweepState
  /** Bodies deleted. */
  bodies: number
  /** Copy states deleted. */
  states: number
  pages: number
}

/** Candidates one pass collects (the rest wait for the next pass). */
export const MAX_CANDIDATES = 2000
const SCAN_PAGE = 1000

function scanFor(ctx: StoreContext, st: BodySweepState): ScanCommand {
  const collect = st.stage === 'collect'
  const filter = collect
    ? '(begins_with(pk, :pb) AND ts < :cut) OR begins_with(pk, :mf) OR begins_with(pk, :sm) OR begins_with(pk, :ps) OR attribute_exists(chg)'
    : 'begins_with(pk, :mf) OR begins_with(pk, :sm) OR attribute_exists(chg)'
  const shared = { ':sm': s(SHARED_PK_PREFIX) }
  const values: Item = collect
    ? {
        ...{ ':pb': s('pb#'), ':mf': s('mf#'), ':ps': s(STATE_PK_PREFIX), ...shared },
        ':cut': n(cutOf(ctx, st)),
      }
    : { ':mf': s('mf#'), ...shared }
  return new ScanCommand({
    TableName: ctx.table,
    Limit: SCAN_PAGE,
    ExclusiveStartKey: startOf(st.cursor),
    FilterExpression: filter,
    ProjectionExpression: collect ? 'pk, sk, #b, chg, shr, uid, rv, ts' : 'pk, sk, #b, chg, shr',
    ExpressionAttributeNames: { '#b': 'body' },
    ExpressionAttributeValues: values,
    ConsistentRead: true,
  })
}

const cutOf = (ctx: StoreContext, st: BodySweepState) => st.began - ctx.retentionMs

function newPass(ctx: StoreContext): BodySweepState {
  const seed = Math.floor(Math.random() * 0x7fffffff)
  return { stage: 'mark', began: ctx.now(), seed, filter: newBloom(seed).save(), candidates: [] }
}

/** The delete stage of pass `st`: its marks (`bloom`), the `candidates` left and the `room`. */
type DeleteStage = {
  bloom: Bloom
  candidates: Set<string>
  room: (cost: number) => boolean
}

/** Deletes the candidates the filter does not hold while there is room; drops each one handled. */
async function deleteCandidates(
  ctx: StoreContext,
  st: BodySweepState,
  stage: DeleteStage
): Promise<number> {
  const { bloom, candidates, room } = stage
  let deleted = 0
  for (const hash of [...candidates]) {
    if (!bloom.has(hash)) {
      if (!room(1)) break
      const key = isSharedMark(hash)
        ? sharedKey(sharedOfMark(hash))
        : { pk: s(bodyPk(hash)), sk: s(SINGLE_SK) }
      deleted += await deleteIf(ctx, key, 'ts < :cut', { ':cut': n(cutOf(ctx, st)) })
    }
    candidates.delete(hash)
  }
  return deleted
}

/**
 * One bounded step of a pass (a new one when `state` is absent): Scan pages while `room(1)`
 * allows and fewer than `maxPages` were read, then deletions while `room(1)` allows.
 */
export async function sweepBodiesStep(
  ctx: StoreContext,
  state: BodySweepState | undefined,
  room: (cost: number) => boolean,
  maxPages = Number.POSITIVE_INFINITY
): Promise<BodySweepStep> {
  const st: BodySweepState = { ...(state ?? newPass(ctx)) }
  const bloom = loadBloom(st.filter, st.seed)
  const candidates = new Set(st.candidates)
  const manifests = new Map<string, Set<string>>()
  const done = { bodies: 0, states: 0, pages: 0 }
  while (st.stage !== 'delete' && done.pages < maxPages && room(1)) {
    const out = await ctx.client.send(scanFor(ctx, st))
    done.pages++
    const stage = st.stage
    const page = { stage, bloom, candidates, maxCandidates: MAX_CANDIDATES, manifests, room }
    const times = { began: st.began, cut: cutOf(ctx, st) }
    const outcome = await sweepPage(ctx, out.Items ?? [], { ...page, ...times })
    done.states += outcome.states
    if (outcome.cut) {
      if (outcome.cut.after) st.cursor = outcome.cut.after
      break
    }
    if (out.LastEvaluatedKey) st.cursor = cursorOf(out.LastEvaluatedKey)
    else {
      st.stage = stage === 'mark' ? 'collect' : 'delete'
      delete st.cursor
    }
  }
  if (st.stage === 'delete') {
    done.bodies += await deleteCandidates(ctx, st, { bloom, candidates, room })
    if (candidates.size === 0) return done
  }
  return { ...done, state: { ...st, filter: bloom.save(), candidates: [...candidates] } }
}

/** A whole pass at once (tools and tests); returns how many bodies it deleted. */
export async function sweepBodies(ctx: StoreContext, maxPages = Number.POSITIVE_INFINITY) {
  let state: BodySweepState | undefined
  let pages = 0
  let bodies = 0
  do {
    const step = await sweepBodiesStep(ctx, state, () => true, maxPages - pages)
    pages += step.pages
    bodies += step.bodies
    state = step.state
  } while (state && pages < maxPages)
  return bodies
}
