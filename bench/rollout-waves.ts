/**
 * The rollout phase, part 2 (timed per wave): after one ConfigMap changed, the rollout step is run
 * about once a second, as the relay's requeue would, until it cuts the revision (the 5 s settle
 * is its own clock's; it is not part of any figure) — that run also promotes the first wave. For
 * each wave: the clock starts when the rollout hook call whose status write promotes it is sent
 * (its gate judged in that run), translate then runs over the mailboxes the relay wakes for the
 * status writes (rollout-relay.ts: the relay's own mapping, which wakes the mailboxes whose
 * standing moved), in rounds (a key deferred or failed is sent again) until every mailbox of the
 * wave holds the revision (rollout-check.ts, read from the table and not timed), and the clock
 * stops when the last translate round returned. A mailbox of the wave that lacks the revision and
 * was not woken is a failure of the relay's mapping, never made up by the bench. No mailbox of a later wave may hold it. Between waves the
 * summarize step runs over the placement (the standings the next gate reads; not timed).
 */
import { configMapKey } from './fan-out-check.ts'
import { driveHook } from './fan-out-hooks.ts'
import { FAN_NAMESPACE } from './fan-out-objects.ts'
import type { FanOutDeps } from './fan-out-types.ts'
import { holding, wavesAsExpected } from './rollout-check.ts'
import { ROLLOUT } from './rollout-objects.ts'
import {
  type RolloutFleet,
  rolloutObject,
  rolloutStatus,
  statusView,
  summarizePass,
  translateAll,
} from './rollout-setup.ts'
import type { WavePromotion } from './rollout-types.ts'

const REVISION = 2
const MAX_ROUNDS = 5
/** How long the rollout step may take to cut the revision or pass a gate. */
const PROMOTE_DEADLINE_MS = 120_000

type Deps = Pick<
  FanOutDeps,
  'hub' | 'counter' | 'reconciles' | 'inspect' | 'storeCpuMs' | 'progress'
>
type Drive = { batch: number; calls: number }

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Per operation, `a` less `b`. */
function minus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [op, n] of Object.entries(a)) if (n - (b[op] ?? 0) > 0) out[op] = n - (b[op] ?? 0)
  return out
}
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0)

/**
 * Runs the rollout step until wave `k` is promoted at the revision; the clock and counters start
 * at the send of the call that did it. The Rollout read after each call is left out of the counts;
 * the mailboxes the relay wakes for each are gathered (`woken`).
 */
async function promote(deps: Deps, fleet: RolloutFleet, k: number) {
  const until = performance.now() + PROMOTE_DEADLINE_MS
  const woken = new Set<string>()
  for (;;) {
    deps.counter.reset()
    deps.reconciles.clear()
    const cpu0 = process.cpuUsage()
    const storeCpu0 = deps.storeCpuMs()
    const t0 = performance.now()
    await driveHook(deps.hub, 'rollout', [fleet.rolloutKey], { batch: 1, calls: 1 })
    const rolloutMs = performance.now() - t0
    const afterCall = deps.counter.snapshot()
    const rollout = await rolloutObject(deps.hub)
    const read = minus(deps.counter.snapshot(), afterCall)
    for (const m of fleet.relay.woken(rollout)) woken.add(m)
    const status = statusView(rollout)
    const w = status.waves?.[k]
    if (status.revision === REVISION && w?.revision === REVISION && status.currentWave === w.name) {
      const rolloutRequests = sum(afterCall)
      return { t0, cpu0, storeCpu0, rolloutMs, rolloutRequests, read, wave: w.name, woken }
    }
    if (performance.now() > until)
      throw new Error(`rollout: wave ${k} not promoted (${JSON.stringify(status)})`)
    await pause(1000)
  }
}

export async function driveWaves(
  deps: Deps,
  fleet: RolloutFleet,
  o: Drive & { payload: string; changedAt: number }
): Promise<{ promotions: WavePromotion[]; cutWaitMs: number }> {
  const want = {
    key: configMapKey(FAN_NAMESPACE, 'cm-0'),
    rollout: ROLLOUT,
    revision: REVISION,
    payload: o.payload,
  }
  // the relay wakes every mailbox the changed ConfigMap goes to: each keeps revision 1 for now
  await translateAll(deps.hub, fleet.mailboxes, o)
  const held = wavesAsExpected(await holding(deps.inspect, fleet.waves, want), -1)
  if (held) throw new Error(`rollout: before any promotion, ${held}`)
  const promotions: WavePromotion[] = []
  let cutWaitMs = 0
  for (const [k, members] of fleet.waves.entries()) {
    if (k > 0) await summarizePass(deps.hub, fleet.placementKey)
    const p = await promote(deps, fleet, k)
    if (k === 0) cutWaitMs = p.t0 - o.changedAt
    let todo = fleet.mailboxes.filter((m) => p.woken.has(m.key))
    let rounds = 0
    let doneMs = 0
    let cpuMs = 0
    let storeCpuMs = 0
    for (;;) {
      if (++rounds > MAX_ROUNDS)
        throw new Error(`rollout: wave ${k} incomplete after ${MAX_ROUNDS} translate rounds`)
      await translateAll(deps.hub, todo, o)
      doneMs = performance.now() - p.t0
      const cpu = process.cpuUsage(p.cpu0)
      cpuMs = (cpu.user + cpu.system) / 1000
      storeCpuMs = deps.storeCpuMs() - p.storeCpu0
      const h = await holding(deps.inspect, fleet.waves, want)
      const lacking = h[k]!.lacking
      if (lacking.length === 0) {
        const problem = wavesAsExpected(h, k)
        if (problem) throw new Error(`rollout: after wave ${k}'s promotion, ${problem}`)
        break
      }
      const unwoken = lacking.filter((m) => !p.woken.has(m.key))
      if (unwoken.length > 0)
        throw new Error(
          `rollout: the relay wakes no key for ${unwoken.length} mailboxes of wave ${k}`
        )
      deps.progress(`rollout: wave ${k}: ${lacking.length} mailboxes without the revision; again`)
      todo = lacking
    }
    const requests = minus(deps.counter.snapshot(), p.read)
    const runs = deps.reconciles.runs().filter((r) => r.step === 'translate')
    promotions.push({
      wave: p.wave,
      mailboxes: members.length,
      woken: p.woken.size,
      promotionMs: doneMs,
      rolloutMs: p.rolloutMs,
      rounds,
      requests,
      requestsTotal: sum(requests),
      rolloutRequests: p.rolloutRequests,
      cpuMs,
      storeCpuMs,
      translateRuns: runs.length,
      unchangedRuns: runs.filter((r) => /(^|: )unchanged$/.test(r.outcome)).length,
    })
    deps.progress(
      `rollout: wave ${k} (${members.length} mailboxes) holds revision ${REVISION} ${(doneMs / 1000).toFixed(2)} s after its promotion`
    )
  }
  await summarizePass(deps.hub, fleet.placementKey)
  await driveHook(deps.hub, 'rollout', [fleet.rolloutKey], { batch: 1, calls: 1 })
  const end = await rolloutStatus(deps.hub)
  if (end.phase !== 'Complete' || end.completedRevision !== REVISION)
    throw new Error(`rollout: not complete after the last wave (${JSON.stringify(end)})`)
  return { promotions, cutWaitMs }
}
