/**
 * Runs a fuzz plan against a hub, one request at a time: runs its setup, sends it, checks the
 * answer (checks.ts), and for writes compares a snapshot of the protected state taken after it
 * with the one before (snapshot.ts): a refused write must change nothing, an accepted one only
 * what it names (`touches`), never an object's uid, kind or apiVersion nor mark it deleted. After
 * a 2xx on a request that names an object, the object is read back to confirm its identity.
 * Every `healthEvery` requests and at the end the hub must answer /readyz, a ConfigMap list and a
 * probe create+delete; a hub that stopped (the in-process one died) is reported and restarted.
 */
import { checkAnswer } from './checks.ts'
import { plan } from './generate.ts'
import { adminJson } from './hub-api.ts'
import { healthProblems, identityViolation, serverLog } from './runner-probes.ts'
import { restore } from './seed.ts'
import { send, type Target } from './send.ts'
import { type Change, describeChange, diff, type Snapshot, snapshotter } from './snapshot.ts'
import type { Answer, Fixture, FuzzRequest, TokenKind, Violation } from './types.ts'

export type FuzzHub = {
  target: Target
  fixture: Fixture
  /** Restarts a hub that stopped answering (the in-process one); absent for remote hubs. */
  restart?: () => Promise<void>
  /** The hub's error log records since the last call (the in-process one); attached to 5xx. */
  errors?: () => string[]
}

export type RunOptions = {
  seed: number
  count: number
  categories?: string[]
  healthEvery?: number
  progress?: (message: string) => void
}

export type FuzzResult = {
  sent: number
  skipped: number
  /** category → status → count (status 0: no answer). */
  counts: Map<string, Map<number, number>>
  rvTooLarge: number
  /** category → milliseconds spent (setup, request, state checks). */
  timeMs: Map<string, number>
  /** The ten slowest requests (answer time only). */
  slowest: { ms: number; index: number; request: FuzzRequest; status: number }[]
  violations: Violation[]
  healthChecks: number
  restarts: number
  durationMs: number
}

const is2xx = (s: number) => s >= 200 && s < 300

function stateViolations(
  r: FuzzRequest,
  status: number,
  changes: Change[]
): Omit<Violation, 'index' | 'request'>[] {
  if (changes.length === 0) return []
  if (!is2xx(status))
    return [
      {
        kind: 'refused-but-stored',
        status,
        detail: `refused with ${status}, yet: ${changes.map(describeChange).join('; ')}`,
      },
    ]
  const out: Omit<Violation, 'index' | 'request'>[] = []
  const allowed = new Set(r.touches ?? [])
  const others = changes.filter((c) => !allowed.has(c.key))
  if (others.length)
    out.push({
      kind: 'touched-other-object',
      status,
      detail: `changed objects it does not name: ${others.map(describeChange).join('; ')}`,
    })
  for (const c of changes.filter(
    (x) => allowed.has(x.key) && x.what === 'modified' && x.before && x.after
  )) {
    const b = c.before!
    const a = c.after!
    if (
      b.uid !== a.uid ||
      b.kind !== a.kind ||
      b.apiVersion !== a.apiVersion ||
      (!b.deleting && a.deleting && r.method !== 'DELETE')
    )
      out.push({ kind: 'identity-changed', status, detail: describeChange(c) })
  }
  return out
}

type Found = Omit<Violation, 'index' | 'request'>

type Run = {
  hub: FuzzHub
  opts: RunOptions
  result: FuzzResult
  takeSnapshot: () => Promise<Snapshot>
  snap: Snapshot
}

/** Checks the hub's health; records and (in-process) restarts it when it does not answer. */
async function health(run: Run, index: number, last: FuzzRequest): Promise<void> {
  const { target: t, fixture: fx } = run.hub
  run.result.healthChecks++
  let problems = await healthProblems(t, fx, index)
  if (problems.length === 0) return
  run.result.violations.push({
    kind: 'hub-unhealthy',
    index,
    request: last,
    status: 0,
    detail: `after request #${index}: ${problems.join('; ')}`,
  })
  if (!run.hub.restart) return
  run.opts.progress?.(`hub unhealthy after #${index}: restarting it`)
  await run.hub.restart()
  run.result.restarts++
  problems = await healthProblems(t, fx, index + 0.5)
  if (problems.length)
    throw new Error(`the hub does not answer even after a restart: ${problems.join('; ')}`)
  await restore(t, fx)
  run.snap = await run.takeSnapshot()
}

/** The state checks after a write (see the header); restores the fixture when it was hurt. */
async function checkWrite(run: Run, r: FuzzRequest, answer: Answer, found: Found[]): Promise<void> {
  const { target: t, fixture: fx } = run.hub
  const after = await run.takeSnapshot().catch((e: Error) => e)
  if (after instanceof Error) {
    found.push({ kind: 'hub-unhealthy', status: answer.status, detail: after.message })
    return
  }
  found.push(...stateViolations(r, answer.status, diff(run.snap, after)))
  run.snap = after
  if (is2xx(answer.status)) {
    const why = await identityViolation(t, r)
    if (why) found.push({ kind: 'identity-changed', status: answer.status, detail: why })
  }
  const bloated = is2xx(answer.status) && answer.body.length >= 32 * 1024
  if (bloated || found.some((v) => v.kind !== 'not-a-status' && v.kind !== 'accepted-hostile')) {
    await restore(t, fx)
    run.snap = await run.takeSnapshot()
  }
}

/** One request sent (`r`, the `index`-th), its answer and how long it took (`ms`). */
type Sent = { r: FuzzRequest; index: number; answer: Answer; ms: number }

function tally(result: FuzzResult, sent: Sent): void {
  const { r, index, answer, ms } = sent
  const slow = result.slowest
  if (slow.length < 10 || ms > (slow[slow.length - 1]?.ms ?? 0)) {
    slow.push({ ms, index, request: r, status: answer.status })
    slow.sort((a, b) => b.ms - a.ms)
    slow.length = Math.min(slow.length, 10)
  }
  result.sent++
  const byStatus = result.counts.get(r.category) ?? new Map<number, number>()
  byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1)
  result.counts.set(r.category, byStatus)
}

async function runOne(run: Run, r: FuzzRequest, index: number): Promise<Found[]> {
  const t = run.hub.target
  const started = performance.now()
  for (const s of r.setup ?? []) await adminJson(t, s.method, s.path, s.body)
  const sentAt = performance.now()
  const answer = await send(t, r)
  tally(run.result, { r, index, answer, ms: performance.now() - sentAt })
  const verdict = checkAnswer(r, answer)
  if (verdict.rvTooLarge) run.result.rvTooLarge++
  const found = [...verdict.violations]
  if (answer.status === 0) await health(run, index, r)
  else if (r.write) await checkWrite(run, r, answer, found)
  const time = run.result.timeMs
  time.set(r.category, (time.get(r.category) ?? 0) + performance.now() - started)
  const logs = run.hub.errors?.() ?? []
  return found.map((v) => ({
    ...v,
    detail: v.detail + (v.kind === 'server-error' || v.kind === 'no-answer' ? serverLog(logs) : ''),
  }))
}

export async function runFuzz(hub: FuzzHub, opts: RunOptions): Promise<FuzzResult> {
  const t0 = performance.now()
  const t = hub.target
  const every = opts.healthEvery ?? 100
  const requests = plan(
    {
      seed: opts.seed,
      count: opts.count,
      ...(opts.categories ? { categories: opts.categories } : {}),
    },
    hub.fixture
  )
  const result: FuzzResult = {
    sent: 0,
    skipped: 0,
    counts: new Map(),
    rvTooLarge: 0,
    timeMs: new Map(),
    slowest: [],
    violations: [],
    healthChecks: 0,
    restarts: 0,
    durationMs: 0,
  }
  const takeSnapshot = snapshotter(t, hub.fixture)
  const run: Run = { hub, opts, result, takeSnapshot, snap: await takeSnapshot() }
  const hasToken = (k: TokenKind) =>
    ['none', 'bad', 'malformed'].includes(k) || Boolean(t.tokens[k])
  for (const [index, r] of requests.entries()) {
    if (!hasToken(r.token)) {
      result.skipped++
      continue
    }
    const found = await runOne(run, r, index)
    for (const v of found) result.violations.push({ ...v, index, request: r })
    if (found.length)
      opts.progress?.(`#${index} ${r.category} ${r.label}: ${found.map((v) => v.kind).join(', ')}`)
    if ((index + 1) % every === 0) {
      await health(run, index, r)
      opts.progress?.(
        `${index + 1}/${requests.length} sent, ${result.violations.length} violations`
      )
    }
  }
  const last = requests[requests.length - 1]
  if (last) await health(run, requests.length, last)
  result.durationMs = performance.now() - t0
  return result
}
