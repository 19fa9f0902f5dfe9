/**
 * The dashboard's views (functions/dashboard/) over a real world (the summarize tests' world: one
 * inventory with e1, e2 env=prod and e3 env=dev, a ConfigMap placed to env=prod): the matrix's
 * rows and cells agree with the summarize step (e1 reported and live → ready, e2 never heard →
 * stale, not failed), its window, label and attention filters; the cell drill-down shows the
 * customized copy and what the edge reported; the placement panel its edges; the edges view every
 * SyncTarget with staleness, how its agent polls (e1 held, 300 s; e3 said nothing) and what it
 * holds, stale by the staleness rule the hub is configured with, whose threshold the answers carry
 * for the page's wording; the watch streams the placements' events; bad parameters and
 * unreachable spaces are kube Statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { livenessRule } from '../../../lib/summarize/liveness.ts'
import { ADMIN_TOKEN } from '../../helpers/hub.ts'
import {
  CFG_REPORTED,
  createWorld,
  placeOneConfigMap,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'
import { uiClient } from './ui-client.ts'

let w: World
let ui: ReturnType<typeof uiClient>

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.heartbeat('e1')
  await w.report('e1', {
    statuses: [CFG_REPORTED],
    heartbeat: true,
    agent: {
      version: '9.9.9',
      pollIntervalSeconds: 7,
      pollMode: 'held',
      holdSeconds: 300,
      lastPollAt: '2031-01-02T03:04:05.000Z',
    },
  })
  await w.summarize()
  ui = uiClient(w.hub)
  await ui.login(ADMIN_TOKEN)
})
afterAll(() => w.close())

const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

describe('dashboard matrix', () => {
  it('shows each placement against the edges it selects, with worst states per cell', async () => {
    const res = await ui.get(`/ui/api/matrix?${q({ space: WS })}`)
    expect(res.status).toBe(200)
    const m = res.body
    expect(m.space).toBe(WS)
    expect(m.placements).toEqual([
      expect.objectContaining({
        name: 'prod',
        destinations: 2,
        staleDestinations: 1,
        objectCount: 1,
      }),
    ])
    expect(m.placements[0].worst).toBe('stale')
    expect(m.edges.total).toBe(2)
    expect(m.edges.items.map((e: any) => e.syncTarget)).toEqual(['e1', 'e2'])
    const [e1, e2] = m.edges.items
    expect(e1).toMatchObject({
      inventory: 'root:imw',
      stale: false,
      labels: { env: 'prod', loc: 'e1' },
    })
    expect(e1.lastSeen).toEqual(expect.any(Number))
    expect(e2).toMatchObject({ stale: true, lastSeen: null })
    const row = m.cells.prod
    expect(row[e2.key].worst).toBe('stale')
    expect(row[e2.key].counts.failed).toBe(0)
    expect(row[e1.key]).toEqual({
      worst: 'ready',
      counts: { pending: 0, applied: 0, ready: 1, failed: 0, removing: 0, stale: 0 },
    })
  })

  it('pages columns, filters by Location labels and by attention', async () => {
    const first = (await ui.get(`/ui/api/matrix?${q({ space: WS, limit: '1' })}`)).body
    expect(first.edges.items.map((e: any) => e.syncTarget)).toEqual(['e1'])
    expect(first.edges.next).toBe(1)
    const second = (await ui.get(`/ui/api/matrix?${q({ space: WS, limit: '1', offset: '1' })}`))
      .body
    expect(second.edges.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect(second.edges.next).toBeUndefined()
    const byLabel = (await ui.get(`/ui/api/matrix?${q({ space: WS, labels: 'loc in (e2,e3)' })}`))
      .body
    expect(byLabel.edges.total).toBe(1)
    expect(byLabel.edges.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect(Object.keys(byLabel.cells.prod)).toEqual([byLabel.edges.items[0].key])
  })

  it('keeps only edges needing attention with attention=1', async () => {
    const att = (await ui.get(`/ui/api/matrix?${q({ space: WS, attention: '1' })}`)).body
    expect(att.edges.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect(att.edges.scanned).toBe(2)
  })

  it('answers bad parameters and unknown spaces with a Status', async () => {
    for (const bad of [
      q({ space: WS, limit: '0' }),
      q({ space: WS, limit: '101' }),
      q({ space: WS, offset: '-1' }),
      q({ space: WS, labels: 'a in (' }),
      q({ space: WS, attention: 'maybe' }),
      q({}),
    ]) {
      const res = await ui.get(`/ui/api/matrix?${bad}`)
      expect(res.status, bad).toBe(400)
      expect(res.body.kind).toBe('Status')
    }
    expect((await ui.get(`/ui/api/matrix?${q({ space: 'root:nope' })}`)).status).toBe(404)
  })

  it('refuses a space the session cannot reach and hides inventory labels it cannot see', async () => {
    await w.hub.mintToken('other', ['root:elsewhere'])
    const other = uiClient(w.hub)
    await other.login('other')
    expect((await other.get(`/ui/api/matrix?${q({ space: WS })}`)).status).toBe(403)
    // no existence oracle: a space that does not exist answers the same, by path or by id
    expect((await other.get(`/ui/api/matrix?${q({ space: 'root:nope' })}`)).status).toBe(403)
    expect((await other.get(`/ui/api/matrix?${q({ space: 'abcdefgh12345678' })}`)).status).toBe(403)
    expect((await other.get('/ui/api/spaces')).body.items).toEqual([])
    await w.hub.mintToken('tenant', [WS])
    const tenant = uiClient(w.hub)
    await tenant.login('tenant')
    const m = (await tenant.get(`/ui/api/matrix?${q({ space: WS })}`)).body
    expect(m.edges.items[0].labels).toEqual({})
    expect((await tenant.get('/ui/api/spaces')).body.items).toEqual([{ path: WS, placements: 1 }])
  })
})

describe('dashboard drill-downs', () => {
  it('shows one placement at one edge: copies, reports, states', async () => {
    const m = (await ui.get(`/ui/api/matrix?${q({ space: WS })}`)).body
    const e1 = m.edges.items[0]
    const res = await ui.get(`/ui/api/cell?${q({ space: WS, placement: 'prod', edge: e1.key })}`)
    expect(res.status).toBe(200)
    expect(res.body.edge.syncTarget).toBe('e1')
    expect(res.body.total).toBe(1)
    const cm = res.body.objects.find((o: any) => o.resource === 'configmaps')
    expect(cm).toMatchObject({ kind: 'ConfigMap', namespace: 'app', name: 'cfg', state: 'ready' })
    expect(cm.copy).toMatchObject({ kind: 'ConfigMap', data: { a: '1' } })
    expect(cm.reported).toEqual({})
    const e2 = m.edges.items[1]
    const stale = await ui.get(`/ui/api/cell?${q({ space: WS, placement: 'prod', edge: e2.key })}`)
    expect(stale.body.objects.every((o: any) => o.state === 'stale')).toBe(true)
    expect(stale.body.objects[0].reason).toBe('StaleDestination')
    const none = await ui.get(`/ui/api/cell?${q({ space: WS, placement: 'prod', edge: 'nope' })}`)
    expect(none.status).toBe(404)
    const noPlacement = await ui.get(
      `/ui/api/cell?${q({ space: WS, placement: 'x', edge: e1.key })}`
    )
    expect(noPlacement.status).toBe(404)
  })

  it('shows a placement with its selected edges', async () => {
    const res = await ui.get(`/ui/api/placement?${q({ space: WS, name: 'prod' })}`)
    expect(res.status).toBe(200)
    expect(res.body.placement.metadata.name).toBe('prod')
    expect(res.body.selected.total).toBe(2)
    expect(res.body.selected.items.map((e: any) => e.syncTarget)).toEqual(['e1', 'e2'])
    expect(res.body.unselected).toEqual({
      total: 1,
      items: [
        {
          cluster: expect.any(String),
          inventory: 'root:imw',
          name: 'e3',
          reason: 'SelectorMismatch',
          message: expect.stringContaining('env'),
        },
      ],
    })
  })

  it('previews what a placement with a given spec would do, writing nothing', async () => {
    const spec = {
      locationSelectors: [{ matchLabels: { env: 'dev' } }],
      namespaceSelector: { matchLabels: { team: 'app' } },
    }
    const res = await ui.call('POST', `/ui/api/preview?${q({ space: WS })}`, { body: { spec } })
    expect(res.status).toBe(200)
    const p = res.body.preview
    expect(p.locations).toEqual({ count: 1, items: [expect.objectContaining({ name: 'e3' })] })
    expect(p.destinations.count).toBe(1)
    expect(p.destinations.items[0]).toMatchObject({ syncTargetName: 'e3' })
    expect(p.objects.items).toContainEqual(
      expect.objectContaining({ resource: 'configmaps', name: 'cfg' })
    )
    expect(p.unselectedLocationCount).toBe(2)
    const placements = (await ui.get(`/ui/api/matrix?${q({ space: WS })}`)).body.placements
    expect(placements.map((r: any) => r.name)).toEqual(['prod'])
    for (const body of ['{', { spec: 'x' }, { spec: { locationSelectors: 'x' } }]) {
      const bad = await ui.call('POST', `/ui/api/preview?${q({ space: WS })}`, { body })
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(bad.body.kind).toBe('Status')
    }
  })
})

describe('dashboard edges', () => {
  it('lists every SyncTarget with staleness, Locations and what it holds', async () => {
    const res = await ui.get('/ui/api/edges')
    expect(res.status).toBe(200)
    expect(res.body.total).toBe(3)
    const byName = Object.fromEntries(res.body.items.map((e: any) => [e.syncTarget, e]))
    expect(byName.e1).toMatchObject({
      stale: false,
      inventory: 'root:imw',
      labels: { id: 'e1' },
      agentVersion: '9.9.9',
      pollIntervalSeconds: 7,
      pollMode: 'held',
      holdSeconds: 300,
      lastPoll: Date.parse('2031-01-02T03:04:05.000Z'),
    })
    expect(byName.e1.locations).toEqual([{ name: 'e1', labels: { env: 'prod', loc: 'e1' } }])
    expect(byName.e1.holds).toBeGreaterThan(0)
    expect(byName.e3).toMatchObject({
      stale: true,
      lastSeen: null,
      agentVersion: null,
      pollIntervalSeconds: null,
      pollMode: null,
      holdSeconds: null,
      lastPoll: null,
    })
    expect(byName.e3.holds).toBeLessThan(byName.e1.holds)
    const stale = (await ui.get('/ui/api/edges?stale=1')).body
    expect(stale.items.map((e: any) => e.syncTarget)).toEqual(['e2', 'e3'])
    const page = (await ui.get('/ui/api/edges?limit=1&offset=1&labels=id%20in%20(e1,e2)')).body
    expect(page).toMatchObject({ total: 2, offset: 1 })
    expect(page.items.map((e: any) => e.syncTarget)).toEqual(['e2'])
    expect((await ui.get('/ui/api/edges?limit=500')).status).toBe(400)
  })

  it('calls edges stale by the hub’s configured rule, and says its threshold', async () => {
    expect((await ui.get('/ui/api/edges')).body.staleAfterMs).toBe(180_000)
    await w.heartbeat('e1', 40_000)
    const hub = w.hub.deps
    hub.liveness = livenessRule(30)
    try {
      const edges = (await ui.get('/ui/api/edges')).body
      expect(edges.staleAfterMs).toBe(30_000)
      expect(edges.items.find((e: any) => e.syncTarget === 'e1').stale).toBe(true)
      const m = (await ui.get(`/ui/api/matrix?${q({ space: WS })}`)).body
      expect(m.staleAfterMs).toBe(30_000)
      expect(m.edges.items[0]).toMatchObject({ syncTarget: 'e1', stale: true })
      expect(m.cells.prod[m.edges.items[0].key].worst).toBe('stale')
    } finally {
      delete hub.liveness
      await w.heartbeat('e1')
    }
    expect((await ui.get('/ui/api/edges')).body.items[0]).toMatchObject({ stale: false })
  })
})

describe('dashboard live', () => {
  it('streams the space placements as watch events', async () => {
    const ac = new AbortController()
    const res = await w.hub.app.request(`http://hub.test/ui/api/watch?${q({ space: WS })}`, {
      headers: { 'x-edgeplane-ui': '1', cookie: await cookieOf() },
      signal: ac.signal,
    })
    expect(res.status).toBe(200)
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const { value } = await reader.read()
    const first = JSON.parse(new TextDecoder().decode(value).split('\n')[0] ?? '')
    expect(first).toMatchObject({
      type: 'ADDED',
      object: { kind: 'EdgePlacement', metadata: { name: 'prod' } },
    })
    ac.abort()
    await reader.cancel().catch(() => undefined)
  })
})

async function cookieOf(): Promise<string> {
  const res = await w.hub.app.request('http://hub.test/ui/api/login', {
    method: 'POST',
    headers: { 'x-edgeplane-ui': '1', 'content-type': 'application/json' },
    body: JSON.stringify({ token: ADMIN_TOKEN }),
  })
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
}

describe('dashboard failures', () => {
  it('shows an edge problem as failed in the cell, the row and the drill-down, with its Event', async () => {
    await w.heartbeat('e1')
    const { group, version, resource, namespace, name } = CFG_REPORTED
    await w.report('e1', {
      problems: [
        {
          group,
          version,
          resource,
          namespace,
          name,
          reason: 'ForeignObject',
          message: 'cfg exists at e1',
        },
      ],
    })
    await w.summarize()
    const m = (await ui.get(`/ui/api/matrix?${q({ space: WS })}`)).body
    const e1 = m.edges.items[0]
    expect(m.cells.prod[e1.key].worst).toBe('failed')
    expect(m.placements[0].worst).toBe('failed')
    const cell = (await ui.get(`/ui/api/cell?${q({ space: WS, placement: 'prod', edge: e1.key })}`))
      .body
    expect(cell.objects[0]).toMatchObject({
      state: 'failed',
      reason: 'ForeignObject',
      message: 'cfg exists at e1',
    })
    expect(cell.objects[0].events).toEqual([
      expect.objectContaining({ type: 'Warning', reason: 'ForeignObject' }),
    ])
  })
})
