/**
 * The observation plan (pages/plan.ts) and page sizes (pages/page-size.ts): mailboxes in name
 * order cut into pages, each with the copies asked for there (those of one destination list as
 * one key set), removal-only mailboxes with none, upsync lists asked only of the key's own
 * destinations when its placement has upsync sets; the ask of a page moves with what it reads and
 * only with that; a page of the default size fits its request share, smaller under a smaller
 * budget or with upsync lists to read.
 */
import { describe, expect, it } from 'vitest'
import {
  MAX_PAGE_PAIRS,
  MAX_PAGE_REQUESTS,
  pageCost,
  pageSize,
} from '../../../../functions/reconcile-summarize/pages/page-size.ts'
import { planObservation } from '../../../../functions/reconcile-summarize/pages/plan.ts'
import type { Destination } from '../../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../../lib/placement/types.ts'

const dest = (uid: string): Destination => ({
  cluster: 'inv',
  locationName: 'loc',
  syncTargetName: `st-${uid}`,
  syncTargetUID: uid,
})
const mb = (uid: string) => `inv-mb-${uid}`

const cm = (name: string): SourceObject =>
  ({
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespaced: true,
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } },
  }) as SourceObject

const key = (name: string) => `/configmaps/ns/${name}`

describe('planObservation', () => {
  const all = ['b', 'a', 'd', 'c', 'e'].map(dest)
  const two = [dest('a'), dest('b')]
  const pairs = [
    { object: cm('x'), destinations: all },
    { object: cm('y'), destinations: all },
    { object: cm('z'), destinations: two },
  ]

  it('cuts the mailboxes, in name order, into pages with the copies asked for there', async () => {
    const plan = await planObservation({
      spaceId: 'ws',
      pairs,
      removals: [mb('f')],
      pageSize: 2,
    })
    expect(plan.mailboxes).toBe(6)
    expect(plan.pages.map((p) => p.asks.map((a) => a.mailbox))).toEqual([
      [mb('a'), mb('b')],
      [mb('c'), mb('d')],
      [mb('e'), mb('f')],
    ])
    expect(plan.pages[0]?.asks[0]?.keys).toEqual([key('x'), key('y'), key('z')])
    expect(plan.pages[1]?.asks[0]?.keys).toEqual([key('x'), key('y')])
    expect(plan.pages[2]?.asks[1]?.keys).toEqual([])
    // Mailboxes asked for the same copies share one key set.
    expect(plan.pages[1]?.asks[0]?.keys).toBe(plan.pages[1]?.asks[1]?.keys)
    expect([...plan.keys.keys()].sort()).toEqual([key('x'), key('y'), key('z')])
  })

  it('gives a page another ask only when what it reads changes', async () => {
    const base = await planObservation({ spaceId: 'ws', pairs, removals: [], pageSize: 2 })
    const same = await planObservation({ spaceId: 'ws', pairs, removals: [], pageSize: 2 })
    expect(same.pages.map((p) => p.ask)).toEqual(base.pages.map((p) => p.ask))
    const more = await planObservation({
      spaceId: 'ws',
      pairs: [...pairs, { object: cm('w'), destinations: [dest('e')] }],
      removals: [],
      pageSize: 2,
    })
    expect(more.pages.map((p, i) => p.ask === base.pages[i]?.ask)).toEqual([true, true, false])
    const other = await planObservation({ spaceId: 'ws2', pairs, removals: [], pageSize: 2 })
    expect(other.pages.every((p, i) => p.ask !== base.pages[i]?.ask)).toBe(true)
  })

  it('asks for upsync lists at the own destinations only when there are upsync sets', async () => {
    const upsync = (sets: { resources: string[] }[]) => ({
      destinations: [dest('b')],
      sets: sets as never,
      all: true,
      granted: true,
    })
    const none = await planObservation({ spaceId: 'ws', pairs, removals: [], upsync: upsync([]) })
    expect(none.pages.flatMap((p) => p.asks.filter((a) => a.upsync))).toEqual([])
    const some = await planObservation({
      spaceId: 'ws',
      pairs,
      removals: [],
      upsync: upsync([{ resources: ['pods'] }]),
    })
    expect(some.pages.flatMap((p) => p.asks.filter((a) => a.upsync).map((a) => a.mailbox))).toEqual(
      [mb('b')]
    )
    expect(some.pages[0]?.ask).not.toBe(none.pages[0]?.ask)
  })

  it('sizes pages by the most copies one mailbox is asked for', async () => {
    const plan = await planObservation({ spaceId: 'ws', pairs, removals: [] })
    expect(plan.pageSize).toBe(pageSize(3, undefined))
    expect(plan.pages).toHaveLength(1)
  })
})

describe('pageSize', () => {
  it('fits a page of the default size in its share of requests and pairs', () => {
    for (const copies of [0, 1, 10, 100, 500, 5_000]) {
      const size = pageSize(copies, undefined)
      const cost = pageCost({ mailboxes: size, copies: size * copies, upsyncMailboxes: 0 })
      expect(cost).toBeLessThanOrEqual(MAX_PAGE_REQUESTS)
      expect(size * copies).toBeLessThanOrEqual(Math.max(MAX_PAGE_PAIRS, copies))
      expect(size).toBeGreaterThanOrEqual(1)
    }
    expect(pageSize(100, undefined)).toBe(200)
  })

  it('makes pages smaller under a smaller budget, and with upsync lists to read', () => {
    expect(pageSize(100, undefined, 200)).toBeLessThan(pageSize(100, undefined))
    const small = pageSize(100, undefined, 200)
    expect(
      pageCost({ mailboxes: small, copies: small * 100, upsyncMailboxes: 0 })
    ).toBeLessThanOrEqual(60)
    const upsyncing = pageSize(10, { resources: 2 })
    expect(upsyncing).toBeLessThan(pageSize(10, undefined))
    expect(
      pageCost({ mailboxes: upsyncing, copies: upsyncing * 10, upsyncMailboxes: upsyncing }, 2)
    ).toBeLessThanOrEqual(MAX_PAGE_REQUESTS)
  })
})
