/**
 * The paged observation over the in-process hub (pages/paged-input.ts), three edges in pages of
 * one mailbox read one page per run (`pagesPerRun`), so that the tests can act between the runs
 * of one pass: a page whose mailbox changes while the others are read is read again before the
 * pages are combined; once combined, only the pages whose mailboxes changed are read again and an
 * unchanged world reads none; a page that keeps changing after it was read again is combined as
 * read, said so, and read at the next run; a read that fails leaves the pages and the placement's
 * status as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePage } from '../../../../functions/reconcile-summarize/pages/page-codec.ts'
import { PAGES_NS } from '../../../../functions/reconcile-summarize/pages/page-store.ts'
import type { SummarizeDeps } from '../../../../functions/reconcile-summarize/reconcile.ts'
import { silentLogger } from '../../../../lib/log.ts'
import { runBatch } from '../../../../lib/reconcile/run.ts'
import { CM, createWorld, EDGES, type Edge, placeOneConfigMap, type World, WS } from '../world.ts'

let w: World
let key: string

const cfg = { group: '', version: 'v1', resource: 'configmaps', namespace: 'app', name: 'cfg' }

/** Runs the key until it is no longer deferred; the outcomes and how many runs it took. */
async function settle(deps: Partial<SummarizeDeps> = {}) {
  const c = w.summarizeWith({ pageSize: 1, pagesPerRun: 1, ...deps })
  for (let runs = 1; runs <= 12; runs++) {
    const { results, deferred } = await runBatch(c, [key], silentLogger)
    if (deferred.length === 0) return { outcome: results[0], runs }
  }
  throw new Error('still deferred after 12 runs')
}

/** The stored pages: per page its edge, the value's version, whether it was a read again. */
async function pages() {
  const byMailbox = new Map<string, Edge>()
  for (const e of Object.keys(EDGES) as Edge[]) byMailbox.set((await w.mailbox(e)).name, e)
  const out = []
  for (let i = 0; i < 3; i++) {
    const entry = await w.hub.deps.kv.get(PAGES_NS, `${key}#${i}`)
    const facts = await decodePage(entry?.value)
    out.push({
      edge: byMailbox.get(facts?.mailboxes[0] ?? ''),
      version: entry?.version,
      again: !!facts?.again,
    })
  }
  return out
}

const failedAt = async () => (await w.placementStatus('p'))?.totals?.failed

const fail = (edge: Edge, message: string) =>
  w.report(edge, { problems: [{ ...cfg, reason: 'ApplyFailed', message }] })

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'p', [{}])
  for (const e of Object.keys(EDGES) as Edge[]) {
    await w.heartbeat(e)
    await w.report(e, { statuses: [{ ...cfg, status: {} }] })
  }
  key = (await w.step('summarize').listKeys(undefined, 10)).keys[0] ?? ''
}, 120_000)

afterAll(() => w?.close())

describe('a paged observation', () => {
  it('reads again, before combining, a page whose mailbox changed while the others were read', async () => {
    const c = w.summarizeWith({ pageSize: 1, pagesPerRun: 1 })
    const first = await runBatch(c, [key], silentLogger)
    expect(first.deferred).toEqual([key])
    const [page0] = await pages()
    expect(page0?.edge).toBeDefined()
    await fail(page0?.edge as Edge, 'changed mid-way')
    const { outcome, runs } = await settle()
    expect(outcome?.outcome).toMatch(/status updated.*\(3 pages\)$/)
    // pages 1 and 2, page 0 again, then the combination with it
    expect(runs).toBe(3)
    expect(await failedAt()).toBe(1)
    const after = await pages()
    expect(after.map((p) => [p.version, p.again])).toEqual([
      [2, true],
      [1, false],
      [1, false],
    ])
  })

  it('reads again only the pages whose mailboxes changed, and none when nothing did', async () => {
    const before = await pages()
    const { outcome } = await settle()
    expect(outcome?.outcome).toBe('unchanged (3 pages)')
    expect(await pages()).toEqual(before)
    await fail(before[1]?.edge as Edge, 'now page 1')
    const changed = await settle()
    expect(changed.outcome?.outcome).toMatch(/status updated/)
    expect(changed.runs).toBe(1)
    expect(await failedAt()).toBe(2)
    const now = await pages()
    expect(now.map((p) => p.version)).toEqual([
      before[0]?.version,
      (before[1]?.version ?? 0) + 1,
      before[2]?.version,
    ])
  })

  it('combines a page that changed again after it was read again, says so, and reads it next', async () => {
    const before = await pages()
    const [e0, e1] = [before[0]?.edge as Edge, before[1]?.edge as Edge]
    await w.report(e0, { statuses: [{ ...cfg, status: {} }] })
    await w.report(e1, { statuses: [{ ...cfg, status: {} }] })
    const c = w.summarizeWith({ pageSize: 1, pagesPerRun: 1 })
    // page 0 read again, page 1 left for the next run
    expect((await runBatch(c, [key], silentLogger)).deferred).toEqual([key])
    await fail(e0, 'changed again')
    const { results } = await runBatch(c, [key], silentLogger)
    expect(results[0]?.outcome).toMatch(/\(3 pages, 1 changed since read\)$/)
    expect(results[0]?.requeueAfterMs).toBe(1000)
    // combined with page 0 as read (no failure), page 1 read again (its failure gone)
    expect(await failedAt()).toBe(0)
    const next = await runBatch(c, [key], silentLogger)
    expect(next.results[0]?.outcome).toMatch(/status updated.*\(3 pages\)$/)
    expect(await failedAt()).toBe(1)
  })

  it('leaves the pages and the status as they were when a read fails', async () => {
    const before = await pages()
    const status = await w.placementStatus('p')
    const object = await w.client.get(WS, CM, 'cfg', 'app')
    await fail(before[2]?.edge as Edge, 'not seen yet')
    const broken = {
      ...w.hub.deps.projections,
      getCopyStatesOf: () => Promise.reject(new Error('the table is gone')),
    }
    const c = w.summarizeWith({ pageSize: 1, projections: broken })
    const { results } = await runBatch(c, [key], silentLogger)
    expect(results[0]).toMatchObject({ ok: false, outcome: 'the table is gone' })
    expect(await pages()).toEqual(before)
    expect(await w.placementStatus('p')).toEqual(status)
    expect(await w.client.get(WS, CM, 'cfg', 'app')).toEqual(object)
  })
})
