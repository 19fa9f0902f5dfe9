/**
 * The summarize step over an EdgePlacement that turned invalid in the store (written straight to
 * it, past the API): it is reported (a warning naming the step, its key and the issue's path) and
 * its status left as it was, while the valid sibling placement of the same space is summarized.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE } from '../../helpers/hub.ts'
import { invalidReports, recorder, storeRaw, type Warning } from './raw-store.ts'
import { CM, configMap, createWorld, NS, placement, type World, WS } from './world.ts'

let w: World
let ws = ''
const warnings: Warning[] = []
const spec = {
  locationSelectors: [{ matchLabels: { env: 'prod' } }],
  namespaceSelector: { matchLabels: { team: 'app' } },
}

beforeAll(async () => {
  w = await createWorld()
  ws = (await w.client.space(WS)).id
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  await w.client.create(WS, CM, configMap('app', 'cfg'))
  await w.client.create(WS, EDGE_PLACEMENTS, placement('good', spec))
  await w.client.create(WS, EDGE_PLACEMENTS, placement('bad', spec))
  await w.placeAll()
  for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
  const bad = await w.client.get(WS, EDGE_PLACEMENTS, 'bad')
  if (!bad) throw new Error('no placement bad')
  await storeRaw(
    w.hub,
    { spaceId: ws, group: 'edge.kcp.io', resource: 'edgeplacements' },
    {
      ...bad,
      spec: { ...spec, namespaceSelector: { matchLabels: 'team=app' } },
    }
  )
}, 120_000)
afterAll(() => w?.close())

describe('summarize over an invalid stored EdgePlacement', () => {
  it('reports it and leaves its status, while summarizing the valid sibling', async () => {
    const controllers = buildControllers({ ...w.hub.deps, log: recorder(warnings) }, BASE)
    const summarize = controllers.find((c) => c.name === 'summarize') as Controller
    const res = await runKeys(summarize, [`${ws}/good`, `${ws}/bad`], silentLogger)
    expect(res.every((r) => r.ok)).toBe(true)
    expect(res.find((r) => r.key === `${ws}/bad`)?.outcome).toMatch(/^no placement/)

    const reports = invalidReports(warnings, 'summarize').filter(
      (r) => r.fields.key === `${ws}/bad`
    )
    expect(reports).toHaveLength(1)
    expect(reports[0]?.fields).toMatchObject({
      kind: 'EdgePlacement',
      issues: [{ path: 'spec.namespaceSelector.matchLabels' }],
    })
    expect(await w.placementStatus('good')).toMatchObject({ destinations: 2, objectCount: 1 })
    expect(await w.placementStatus('bad')).toBeUndefined()
  })
})
