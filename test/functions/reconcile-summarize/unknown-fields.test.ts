/**
 * An EdgePlacement stored with a spec field the schema does not know (as an older release of the
 * hub stored them, written here straight to the store, past the API) is still resolved,
 * translated and summarized: the steps' strict writes do not fail on a field the stored object
 * carries. The first write drops the field and its ownership, and logs it once, naming the
 * writing step and the object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import { CLUSTER_ANNOTATION } from '../../../lib/kube/types.ts'
import type { LogFields, Logger } from '../../../lib/log.ts'
import { CM, configMap, createWorld, NS, placement, type World, WS } from './world.ts'

let w: World
const warnings: { msg: string; fields: LogFields }[] = []

/** A logger that keeps the warnings and drops everything else. */
function recorder(bound: LogFields = {}): Logger {
  return {
    debug: () => {},
    info: () => {},
    warn: (msg, fields = {}) => warnings.push({ msg, fields: { ...bound, ...fields } }),
    error: () => {},
    child: (fields) => recorder({ ...bound, ...fields }),
  }
}

beforeAll(async () => {
  w = await createWorld()
  w.hub.deps.log = recorder()
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  await w.client.create(WS, CM, configMap('app', 'cfg'))
  const ws = await w.client.space(WS)
  const old = placement('old', {
    locationSelectors: [{ matchLabels: { env: 'prod' } }],
    namespaceSelector: { matchLabels: { team: 'app' } },
    downsync: [{ apiGroup: '', resources: ['configmaps'] }],
  })
  const key = { cluster: ws.id, group: 'edge.kcp.io', resource: 'edgeplacements' }
  await w.hub.store.objects.create(
    { ...key, namespace: '', name: 'old' },
    {
      ...old,
      metadata: {
        name: 'old',
        uid: 'u-old',
        creationTimestamp: '2026-01-01T00:00:00Z',
        generation: 1,
        annotations: { [CLUSTER_ANNOTATION]: ws.id },
      },
    }
  )
}, 120_000)
afterAll(() => w?.close())

describe('a stored EdgePlacement with an unknown spec field', () => {
  it('is resolved, translated and summarized', async () => {
    await w.placeAll()
    for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
    await w.summarize()
    const ep = await w.client.get(WS, EDGE_PLACEMENTS, 'old')
    expect(ep?.status).toMatchObject({ matchingLocationCount: 2 })
    expect(await w.placementStatus('old')).toMatchObject({ destinations: 2, objectCount: 1 })
  })

  it('lost the field and its ownership on the first write, logged once', async () => {
    const ep = await w.client.get(WS, EDGE_PLACEMENTS, 'old')
    expect(ep?.spec).not.toHaveProperty('downsync')
    expect(JSON.stringify(ep?.metadata.managedFields)).not.toContain('downsync')
    const dropped = warnings.filter((l) => JSON.stringify(l.fields).includes('spec.downsync'))
    expect(dropped).toHaveLength(1)
    expect(dropped[0]?.fields).toMatchObject({
      writer: expect.stringMatching(/^edgeplane-/),
      object: expect.stringContaining('/edge.kcp.io/edgeplacements//old'),
    })
  })
})
