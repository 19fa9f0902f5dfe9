/**
 * A watch is one invocation: it ends normally — a BOOKMARK at its last version, then the end of
 * the stream, never an ERROR — before its polls could take it past its share of the budget (here
 * a budget of 24 subrequests, strict), and a client watching again from that version sees what
 * changed since, as kube clients re-watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { SHARES } from '../../../lib/budget/limits.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'
import { ndjsonReader } from '../../helpers/ndjson-reader.ts'

const BUDGET = 24
const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
let hub: TestHub
const ended: InvocationStats[] = []

beforeAll(async () => {
  const budget = {
    subrequests: BUDGET,
    mode: 'strict' as const,
    onEnd: (s: InvocationStats) => ended.push(s),
  }
  hub = await createTestHub({ budget })
})
afterAll(() => hub.close())

async function watchAll(query: string) {
  const res = await hub.app.request(`${BASE}${CMS}?watch=true&${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  })
  const reader = ndjsonReader(res.body!)
  const events: any[] = []
  for (let e = await reader.next(); e !== undefined; e = await reader.next()) events.push(e)
  return events
}

describe('a watch within its invocation budget', () => {
  it('ends on its own with a bookmark before the budget, and a re-watch continues', async () => {
    const made = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w1' },
    })
    const rv = made.body.metadata.resourceVersion
    ended.length = 0
    const events = await watchAll(`resourceVersion=${rv}&allowWatchBookmarks=true`)
    expect(events.some((e) => e.type === 'ERROR')).toBe(false)
    const last = events[events.length - 1]
    expect(last.type).toBe('BOOKMARK')
    const watch = ended.find((s) => s.kind === 'watch')!
    expect(watch.exceeded).toBe(false)
    expect(watch.subrequests).toBeLessThanOrEqual(Math.floor(BUDGET * SHARES.watch))
    expect(watch.subrequests).toBeGreaterThan(Math.floor(BUDGET * SHARES.watch) / 2)

    await hub.call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w2' } })
    const from = last.object.metadata.resourceVersion
    const again = await watchAll(`resourceVersion=${from}&allowWatchBookmarks=true`)
    expect(again[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w2' } } })
  })
})
