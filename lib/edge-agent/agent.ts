/**
 * One edge agent: its state folder (desired.json, reported.json) loaded at creation, its
 * ownership record in the edge cluster (owned-keeper.ts) read at the first poll, and `poll()`,
 * one round of the loop:
 * 0. read the ownership record if it has not been read (or a write found it changed): when it
 *    cannot be read, the poll fails and does nothing else;
 * 1. ask the center for the desired state, naming the version of the copy on disk (304:
 *    unchanged), unless the caller hands the answer in (held-loop.ts: a held poll's, or
 *    `unchanged` while one is held). That copy is always complete and is re-applied every poll, so naming it is safe
 *    even when some entry failed to apply, and an entry that keeps failing costs the center no
 *    more than a 304. When the center cannot be reached or fails, the copy on disk is applied
 *    (holding the line: drift on owned objects is reverted, an owned object deleted at the edge
 *    comes back) and the poll ends there — nothing is pruned, deleted or reported; the loop backs
 *    off. A 200 is merged into the copy on disk (an incomplete delta makes the next request a
 *    full one);
 * 2. read the edge's discovery and apply the copy (apply.ts; also on 304, which is how drift is
 *    reverted and failed applies are retried), never the agent's own objects (self-protection.ts:
 *    those entries are refused and reported as failed); a tenant's entries are written as that
 *    tenant's identity at the edge (tenant-binder.ts), so the edge's RBAC has the last word;
 * 3. prune what the agent owns and the desired state dropped or marks `removing` (prune.ts) —
 *    never on a version-0 answer, which means the mailbox has no content yet, not that it wants
 *    nothing;
 * 4. report changed statuses, upsync changes, problems, the tombstones the edge no longer has
 *    (removals.ts) and the heartbeat (report-send.ts).
 * A poll's result is poll-result.ts's (its type re-exported here). Every dependency is injected
 * (center client, edge client, clock, paths), so tests run it against a real in-process edge API
 * and a small fake center.
 */
import { join } from 'node:path'
import type { Builtins } from '../apis/builtins.ts'
import type { Problem } from '../edge/protocol.ts'
import type { Logger } from '../log.ts'
import { applyPlanned } from './apply.ts'
import { memoLister } from './associated.ts'
import type { CenterClient, DesiredAnswer } from './center-client.ts'
import { type DesiredCopy, loadDesired, mergeDesired, saveDesired } from './desired-store.ts'
import { indexDiscovery } from './discovery.ts'
import type { EdgeKube } from './kube-client.ts'
import { createOwnedKeeper, OWNED_RECORD_NAME } from './owned-keeper.ts'
import type { Owned } from './ownership.ts'
import { type PollResult, pollResult } from './poll-result.ts'
import { pruneOwned } from './prune.ts'
import { type Keyed, refKey } from './refs.ts'
import { goneAtEdge, keepCurrentRemovals, removalsToConfirm } from './removals.ts'
import { sendReport } from './report-send.ts'
import { loadReportState, type ReportState, saveReportState } from './report-state.ts'
import { planEntries } from './selection.ts'
import { type AgentSelf, agentSelf, protectedProblem, protectedReason } from './self-protection.ts'
import { collectStatuses } from './status-collector.ts'
import { createTenantBinder } from './tenant-binder.ts'
import { collectUpsync } from './upsync-collector.ts'
import { upsyncSetsOf, upsyncTargets } from './upsync-sets.ts'

/** The poll's result, for callers that know the agent only (poll-result.ts is its unit). */
export type { PollOutcome, PollResult } from './poll-result.ts'

export type AgentDeps = {
  mailbox: string
  center: CenterClient
  kube: EdgeKube
  stateDir: string
  /** Where the ownership record lives: the agent's namespace; name default OWNED_RECORD_NAME. */
  record: { namespace: string; name?: string }
  builtins: Builtins
  log: Logger
  now?: () => Date
  /** How often a report carries a heartbeat (default HEARTBEAT_MS, once a minute). */
  heartbeatMs?: number
  /**
   * What the agent never writes (self-protection.ts); default its record's namespace with the
   * bootstrap's RBAC names.
   */
  self?: AgentSelf
}

export type Agent = {
  /** One poll; `given`: the center's answer already in hand (a held poll's), not asked again. */
  poll(given?: DesiredAnswer): Promise<PollResult>
  /** The in-memory state, for tests and diagnostics. */
  inspect(): { desired?: DesiredCopy; owned: Owned; reported: ReportState }
}

export const statePaths = (dir: string) => ({
  desired: join(dir, 'desired.json'),
  /** An earlier version's ownership record, imported into the cluster once (owned-keeper.ts). */
  owned: join(dir, 'owned.json'),
  reported: join(dir, 'reported.json'),
})

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e))

export async function createAgent(deps: AgentDeps): Promise<Agent> {
  const paths = statePaths(deps.stateDir)
  const now = deps.now ?? (() => new Date())
  const loadedDesired = await loadDesired(paths.desired, deps.mailbox)
  if (loadedDesired.problem) deps.log.warn(loadedDesired.problem, { path: paths.desired })
  const keeper = createOwnedKeeper({
    kube: deps.kube,
    namespace: deps.record.namespace,
    name: deps.record.name ?? OWNED_RECORD_NAME,
    log: deps.log,
    importFrom: paths.owned,
    now,
  })
  let desired = loadedDesired.copy
  const { owned, identity } = keeper
  let reported = await loadReportState(paths.reported)
  let needFull = false
  const checked = new Map<string, string>()
  const persistOwned = () => keeper.save()
  const self = deps.self ?? agentSelf(deps.record.namespace)

  async function poll(given?: DesiredAnswer): Promise<PollResult> {
    const started = Date.now()
    const done = (patch: Partial<PollResult>): PollResult =>
      pollResult({ ...patch, durationMs: Date.now() - started })
    try {
      if (await keeper.ready()) checked.clear()
    } catch (e) {
      const error = `ownership record unreadable, nothing done: ${errText(e)}`
      return done({ outcome: 'failed', ok: false, error })
    }
    let answer: DesiredAnswer
    try {
      answer = given ?? (await deps.center.getDesired(needFull ? undefined : desired?.version))
    } catch (e) {
      const code = (e as { code?: number }).code ?? 0
      return done({
        ...(await holdLine()),
        outcome: code === 0 ? 'offline' : 'center-error',
        ok: false,
        error: errText(e),
      })
    }
    let fresh = false
    if (answer.kind === 'desired') {
      if (answer.state.mailbox !== deps.mailbox) {
        const error = `the center answered for mailbox ${answer.state.mailbox}`
        return done({ outcome: 'center-error', ok: false, error })
      }
      const merged = mergeDesired(desired, answer.state)
      if (merged.kind === 'incomplete') {
        needFull = true
        const error = `desired state without ${merged.missing.length} bodies; asking for all`
        return done({ outcome: 'center-error', ok: false, error })
      }
      fresh = merged.copy.version !== desired?.version
      desired = merged.copy
      await saveDesired(paths.desired, desired)
    }
    needFull = false
    if (!desired) return done({ outcome: 'center-error', ok: false, error: 'no desired state' })
    try {
      return done(await reconcile(desired, fresh))
    } catch (e) {
      return done({ outcome: 'failed', ok: false, version: desired.version, error: errText(e) })
    }
  }

  const binder = createTenantBinder({
    kube: deps.kube,
    selfNamespace: self.namespace,
    log: deps.log,
    now,
  })

  async function applyCopy(copy: DesiredCopy) {
    const { kube, log } = deps
    const discover = async () => indexDiscovery(await kube.discover())
    const discovery = await discover()
    const refused: Problem[] = []
    const planned = planEntries(copy, deps.builtins).filter((p) => {
      const why = protectedReason(p.entry, self)
      if (why !== undefined) refused.push(protectedProblem(p.entry, why))
      return why === undefined
    })
    const applied = await applyPlanned(
      { kube, owned, saveOwned: persistOwned, identity, discover, checked, now, log, binder },
      planned,
      discovery
    )
    return { planned, applied, refused }
  }

  /** Without the center: the copy on disk applied again, nothing pruned; never throws. */
  async function holdLine(): Promise<Partial<PollResult>> {
    if (!desired) return {}
    try {
      const { applied } = await applyCopy(desired)
      const { created, updated, unchanged } = applied
      if (created + updated > 0)
        deps.log.info('center unreachable: reverted drift from the copy on disk', {
          created,
          updated,
        })
      return { version: desired.version, created, updated, unchanged }
    } catch (e) {
      deps.log.warn('center unreachable: could not apply the copy on disk', { error: errText(e) })
      return {}
    }
  }

  async function reconcile(copy: DesiredCopy, fresh: boolean): Promise<Partial<PollResult>> {
    const { kube, log } = deps
    const { planned, applied, refused } = await applyCopy(copy)
    // Version 0: the mailbox has no content yet (new, or re-created and not yet translated; a
    // translated one always holds its SyncerConfig). That is no reason to remove anything.
    const pruned =
      copy.version === 0
        ? { pruned: 0, dropped: 0, problems: [] }
        : await pruneOwned(
            { kube, owned, builtins: deps.builtins, log, identity, self },
            new Set(planned.map((p) => p.key))
          )
    if (copy.version === 0 && owned.size > 0)
      log.warn('the mailbox has no content yet: keeping what the agent owns', { owned: owned.size })
    if (pruned.pruned + pruned.dropped > 0) await persistOwned()
    for (const key of checked.keys()) if (!owned.has(key)) checked.delete(key)
    const problems: Problem[] = [...refused, ...applied.problems, ...pruned.problems]
    // Never upsynced: what the agent downsynced, anything the mailbox holds a copy of, the
    // ConfigMaps of the agent's own ownership record and the rest of the agent's own objects.
    const copies = new Set(copy.entries.map(refKey))
    const state = keepCurrentRemovals(withoutStale(reported, owned, problems), copy)
    const removed =
      copy.version === 0 ? [] : await goneAtEdge(kube, removalsToConfirm(copy, owned, state))
    const list = memoLister(kube)
    const statuses = await collectStatuses(applied.live, state.statuses, list, log)
    const targets = upsyncTargets(upsyncSetsOf(copy), applied.discovery)
    const skip = (k: string, r: Keyed) =>
      owned.has(k) || copies.has(k) || keeper.holds(k) || protectedReason(r, self) !== undefined
    const upsync = await collectUpsync(kube, {
      targets,
      downsynced: skip,
      previous: reported.upsynced,
      log,
    })
    const base: Partial<PollResult> = {
      outcome:
        fresh || applied.created + applied.updated + pruned.pruned > 0 ? 'applied' : 'unchanged',
      version: copy.version,
      created: applied.created,
      updated: applied.updated,
      unchanged: applied.unchanged,
      pruned: pruned.pruned,
      problems: problems.length,
    }
    const nowMs = now().getTime()
    const input = {
      ...{ statuses, upsync, problems, copies, removed, state, nowMs },
      ...(deps.heartbeatMs ? { heartbeatMs: deps.heartbeatMs } : {}),
    }
    const sent = await sendReport(deps, input)
    await saveReported(sent.state)
    if (sent.error !== undefined)
      return { ...base, ok: false, outcome: 'center-error', error: sent.error }
    const { reported: wasSent, statuses: n, upsyncApply, upsyncDelete } = sent
    const confirmed = sent.removed ? { removed: sent.removed } : {}
    return { ...base, reported: wasSent, statuses: n, upsyncApply, upsyncDelete, ...confirmed }
  }

  async function saveReported(next: ReportState): Promise<void> {
    if (JSON.stringify(next) === JSON.stringify(reported)) return
    reported = next
    await saveReportState(paths.reported, reported)
  }

  return { poll, inspect: () => ({ ...(desired ? { desired } : {}), owned, reported }) }
}

/**
 * The report state without the status hashes of objects the agent no longer owns, nor of those
 * whose problem has gone since the last accepted problem report (their status goes again).
 */
function withoutStale(s: ReportState, owned: Owned, problems: readonly Problem[]): ReportState {
  const now = new Set(problems.map(refKey))
  const cleared = new Set(s.problemKeys.filter((k) => !now.has(k)))
  const statuses = Object.fromEntries(
    Object.entries(s.statuses).filter(([k]) => owned.has(k) && !cleared.has(k))
  )
  return { ...s, statuses }
}
