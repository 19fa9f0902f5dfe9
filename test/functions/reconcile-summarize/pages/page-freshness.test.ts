/**
 * Which stored pages still stand (pages/page-freshness.ts), over a real store: pages of one
 * mailbox each, read (pages/page-read.ts), then checked after changes — a copy-state write makes
 * its page changed and no other; a manifest write is looked for once the `manifests` epoch moved
 * (its writers move it after writing); a mailbox that had no Ready space is looked at every time;
 * a page of another ask, or too old, is unread. The check costs what it says before it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  checkPages,
  epochsNow,
  PAGE_MAX_AGE_MS,
} from '../../../../functions/reconcile-summarize/pages/page-freshness.ts'
import { readPage } from '../../../../functions/reconcile-summarize/pages/page-read.ts'
import { planObservation } from '../../../../functions/reconcile-summarize/pages/plan.ts'
import { ensureSpace } from '../../../../lib/hub/spaces.ts'
import type { Destination } from '../../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../../lib/placement/types.ts'
import { bumpEpoch } from '../../../../lib/store/epochs.ts'
import { createRequestCounter } from '../../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../../helpers/dynalite.ts'
import { cmEntry, NOW } from '../../../lib/store/projection-fixtures.ts'

let t: TestStore
const counter = createRequestCounter()
let clock = Date.now()
const deps = () => ({ kv: t.kv, projections: t.projections, now: () => new Date(clock) })

const dest = (uid: string): Destination => ({
  cluster: 'inv',
  locationName: 'loc',
  syncTargetName: uid,
  syncTargetUID: uid,
})
const cm = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns1' } },
} as SourceObject
const key = { group: '', resource: 'configmaps', namespace: 'ns1', name: 'a' }

const plan = (spaceId = 'ws') =>
  planObservation({
    spaceId,
    pairs: [{ object: cm, destinations: ['a', 'b', 'c'].map(dest) }],
    removals: [],
    pageSize: 1,
  })

beforeAll(async () => {
  t = await createTestStore({ counter })
  for (const id of ['a', 'b']) {
    await ensureSpace(t.kv, `root:espw:inv-mb-${id}`, { id: `s${id}` })
    await t.projections.writeManifest(`s${id}`, {
      desired: [{ ...cmEntry('a'), sources: [{ space: 'ws', placements: ['p'] }] }],
      expectedVersion: null,
      now: NOW,
    })
  }
})
afterAll(() => t?.close())

async function readAll() {
  const p = await plan()
  const epochs = await epochsNow(t.kv, clock)
  const pages = []
  for (const page of p.pages) pages.push(await readPage(deps(), p, page, { epochs }))
  return { p, pages }
}

async function statuses(p: Awaited<ReturnType<typeof plan>>, pages: unknown[]) {
  const epochs = await epochsNow(t.kv, clock)
  const check = checkPages(deps(), p, {
    stored: pages as never,
    only: new Set([0, 1, 2]),
    epochs,
  })
  counter.reset()
  const out = await check.run()
  const sent = Object.values(counter.snapshot()).reduce((n, v) => n + v, 0)
  expect(sent).toBeLessThanOrEqual(check.cost)
  return out
}

describe('page freshness', () => {
  it('finds every page current when nothing changed', async () => {
    const { p, pages } = await readAll()
    expect(pages.map((f) => f.spaces)).toEqual([['sa'], ['sb'], [null]])
    expect(await statuses(p, pages)).toEqual(['current', 'current', 'current'])
  })

  it("changes a page with a copy-state write in its mailbox, and no other's", async () => {
    const { p, pages } = await readAll()
    const m = await t.projections.getManifest('sa')
    await t.projections.putCopyStates('sa', [
      { key, state: { uid: m?.entries[0]?.uid ?? '', status: { x: 1 } }, expectedRv: null },
    ])
    expect(await statuses(p, pages)).toEqual(['changed', 'current', 'current'])
  })

  it('looks for manifest writes once the manifests epoch moved', async () => {
    const { p, pages } = await readAll()
    const known = await t.projections.getManifest('sb')
    await t.projections.writeManifest('sb', {
      desired: [
        { ...cmEntry('a', 'ns1', { k: 'v2' }), sources: [{ space: 'ws', placements: ['p'] }] },
      ],
      expectedVersion: known?.version ?? null,
      now: NOW,
    })
    expect(await statuses(p, pages)).toEqual(['current', 'current', 'current'])
    await bumpEpoch(t.kv, 'manifests')
    expect(await statuses(p, pages)).toEqual(['current', 'changed', 'current'])
  })

  it('looks every time at a mailbox that had no Ready space', async () => {
    const { p, pages } = await readAll()
    await ensureSpace(t.kv, 'root:espw:inv-mb-c', { id: 'sc' })
    expect(await statuses(p, pages)).toEqual(['current', 'current', 'changed'])
  })

  it('takes a page of another ask, or too old, as unread', async () => {
    const { p, pages } = await readAll()
    const other = await plan('ws2')
    expect(await statuses(other, pages)).toEqual(['unread', 'unread', 'unread'])
    clock += PAGE_MAX_AGE_MS + 1
    expect(await statuses(p, pages)).toEqual(['unread', 'unread', 'unread'])
  })
})
