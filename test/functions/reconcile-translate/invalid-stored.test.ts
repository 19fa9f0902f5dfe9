/**
 * The translate step over an EdgePlacement that turned invalid in the store (written straight to
 * it, past the API) while its slice still names two destinations: the placement is reported once
 * per batch (a warning naming the step, its key and the issue's path), left out of the mailboxes,
 * and a Warning Event with reason InvalidSpec names the issue (no condition: the hub refuses a
 * status write to an object that breaks its schema); the valid sibling placement
 * is still translated (an object created afterwards reaches its mailboxes, its condition stays
 * True).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE } from '../../helpers/hub.ts'
import {
  invalidReports,
  recorder,
  storeRaw,
  type Warning,
} from '../reconcile-summarize/raw-store.ts'
import {
  CM,
  configMap,
  createWorld,
  NS,
  placement,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'

let w: World
let ws = ''
let bad: KubeObject | undefined
const warnings: Warning[] = []
const spec = {
  locationSelectors: [{ matchLabels: { env: 'prod' } }],
  namespaceSelector: { matchLabels: { team: 'app' } },
}

const condition = async (name: string) => {
  const ep = await w.client.get(WS, EDGE_PLACEMENTS, name)
  const list = ((ep?.status as JsonObject | undefined)?.conditions ?? []) as JsonObject[]
  return list.find((c) => c.type === 'Translated')
}

const copies = async () => {
  const mb = await w.mailbox('e1')
  const manifest = await w.hub.deps.projections.getManifest(mb.space.id)
  return (manifest?.entries ?? []).filter((e) => !e.removing).map((e) => `${e.resource}/${e.name}`)
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
  bad = await w.client.get(WS, EDGE_PLACEMENTS, 'bad')
  if (!bad) throw new Error('no placement bad')
  await storeRaw(
    w.hub,
    { spaceId: ws, group: 'edge.kcp.io', resource: 'edgeplacements' },
    {
      ...bad,
      spec: { ...spec, upsync: 'everything' },
    }
  )
  await w.client.create(WS, CM, configMap('app', 'later'))
}, 120_000)
afterAll(() => w?.close())

describe('translate over an invalid stored EdgePlacement', () => {
  it('reports it once, marks it InvalidSpec, and still translates the valid sibling', async () => {
    const controllers = buildControllers({ ...w.hub.deps, log: recorder(warnings) }, BASE)
    const translate = controllers.find((c) => c.name === 'translate') as Controller
    const page = await translate.listKeys(undefined, 1000)
    const res = await runKeys(translate, page.keys, silentLogger)
    expect(res.every((r) => r.ok)).toBe(true)

    const reports = invalidReports(warnings, 'translate').filter(
      (r) => r.fields.key === `${ws}/bad`
    )
    expect(reports).toHaveLength(1)
    expect(reports[0]?.fields).toMatchObject({
      kind: 'EdgePlacement',
      issues: [{ path: 'spec.upsync' }],
    })
    const events = await w.client.list(WS, { group: '', version: 'v1', resource: 'events' })
    const invalid = events.filter((e) => e.reason === 'InvalidSpec')
    expect(invalid).toHaveLength(1)
    expect(invalid[0]).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'EdgePlacement', name: 'bad', uid: bad?.metadata.uid },
      message: expect.stringContaining('spec.upsync'),
    })
    expect(await condition('good')).toMatchObject({ status: 'True' })
    expect(await copies()).toEqual(expect.arrayContaining(['configmaps/cfg', 'configmaps/later']))
  })
})
