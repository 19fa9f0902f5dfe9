/**
 * The edge panel's route (functions/dashboard/edge-detail.ts, `GET /ui/api/edge`) over the
 * summarize tests' world: an edge is opened by its mailbox key, as the edges view lists it, and
 * answers the edges view's item with the copies it holds, worst first, each with its reason and
 * the workload space and placement it came from, and how its agent polls (mode, hold asked, its
 * last poll in epoch ms); an edge the session may not see answers 404 as
 * one that does not exist, a missing key 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
let keys: Record<string, string>

/** What e1's agent reports of the Namespace the ConfigMap needs. */
const NS_REPORTED = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespace: '',
  name: 'app',
  status: { phase: 'Active' },
}

/** e1's agent: it asks holds of 300 s, and its last poll was plain (the center did not hold). */
const AGENT = { version: '0.5.0', pollIntervalSeconds: 20 }
const LAST_POLL = '2031-03-04T05:06:07.890+01:00'

beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.heartbeat('e1')
  const { group, version, resource, namespace, name } = CFG_REPORTED
  await w.report('e1', {
    statuses: [NS_REPORTED],
    problems: [
      { group, version, resource, namespace, name, reason: 'ForeignObject', message: 'in the way' },
    ],
    heartbeat: true,
    agent: { ...AGENT, pollMode: 'plain', holdSeconds: 300, lastPollAt: LAST_POLL },
  })
  ui = uiClient(w.hub)
  await ui.login(ADMIN_TOKEN)
  const list = (await ui.get('/ui/api/edges')).body.items
  keys = Object.fromEntries(list.map((e: any) => [e.syncTarget, e.key]))
})
afterAll(() => w.close())

const edge = (key: string, client = ui) =>
  client.get(`/ui/api/edge?${new URLSearchParams({ key })}`)

describe('dashboard edge panel', () => {
  it('shows an edge with the copies it holds, failed first, and where each came from', async () => {
    const res = await edge(keys.e1 ?? '')
    expect(res.status).toBe(200)
    expect(res.body.edge).toMatchObject({
      syncTarget: 'e1',
      inventory: 'root:imw',
      stale: false,
      worst: 'failed',
      locations: [{ name: 'e1', labels: { env: 'prod', loc: 'e1' } }],
      agentVersion: '0.5.0',
      pollIntervalSeconds: 20,
      pollMode: 'plain',
      holdSeconds: 300,
      lastPoll: Date.parse('2031-03-04T04:06:07.890Z'),
    })
    expect(res.body.total).toBe(2)
    expect(res.body.copies).toEqual([
      {
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: 'app',
        name: 'cfg',
        state: 'failed',
        reason: 'ForeignObject',
        message: 'in the way',
        sources: [{ space: WS, placements: ['prod'] }],
      },
      expect.objectContaining({ resource: 'namespaces', name: 'app', state: 'ready' }),
    ])
  })

  it('shows a stale edge copy by copy as stale, never failed', async () => {
    const res = await edge(keys.e2 ?? '')
    expect(res.body.edge).toMatchObject({ syncTarget: 'e2', stale: true, worst: 'stale' })
    expect(res.body.copies.map((c: any) => [c.name, c.state, c.reason])).toEqual([
      ['cfg', 'stale', 'StaleDestination'],
      ['app', 'stale', 'StaleDestination'],
    ])
  })

  it('answers 404 for an edge the session may not see or that is none, 400 without a key', async () => {
    await w.hub.mintToken('elsewhere', ['root:elsewhere'])
    const other = uiClient(w.hub)
    await other.login('elsewhere')
    expect((await edge(keys.e1 ?? '', other)).status).toBe(404)
    const [space] = (keys.e1 ?? '').split('-mb-')
    for (const key of ['nope', `${space}-mb-0123456789abcdef0123456789abcdef`])
      expect((await edge(key)).status, key).toBe(404)
    const none = await ui.get('/ui/api/edge')
    expect(none.status).toBe(400)
    expect(none.body.kind).toBe('Status')
  })
})
