/**
 * The translate step over an EdgePlacement that turned invalid in the store (written straight to
 * it, past the API) after it delivered copies: `bad` places namespace `solo` on e1 (loc=e1),
 * `good` places namespace `app` on e1 and e2 (env=prod). The invalid placement is reported once
 * per batch (a warning naming the step, its key and the issue's path) with a Warning Event
 * InvalidSpec (no condition: the hub refuses a status write to an object that breaks its schema),
 * and it is an unknown, not an absence: e1, which it reaches, is kept exactly as it was (its copy
 * is not tombstoned; one warning says so), while e2, which it does not reach, still gets `good`'s
 * new object. Made valid again, e1 converges. Same for a valid placement whose slice turns
 * invalid: the manifest's sources say where it delivered, and that mailbox is kept until the where
 * step rewrites the slice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { EDGE_PLACEMENTS, PLACEMENT_SLICES } from '../../../lib/apis/gvr.ts'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { agentsPolled } from '../../helpers/agents-polled.ts'
import { BASE } from '../../helpers/hub.ts'
import {
  invalidReports,
  recorder,
  seedGoodAndBad,
  storeRawPlacement,
  storeRawSlice,
  type Warning,
} from '../reconcile-summarize/raw-store.ts'
import {
  CM,
  configMap,
  createWorld,
  type Edge,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'

let w: World
let ws = ''
let bad: KubeObject | undefined
const badSpec = {
  locationSelectors: [{ matchLabels: { loc: 'e1' } }],
  namespaceSelector: { matchLabels: { team: 'solo' } },
}
const goodSpec = {
  locationSelectors: [{ matchLabels: { env: 'prod' } }],
  namespaceSelector: { matchLabels: { team: 'app' } },
}

const condition = async (name: string) => {
  const ep = await w.client.get(WS, EDGE_PLACEMENTS, name)
  const list = ((ep?.status as JsonObject | undefined)?.conditions ?? []) as JsonObject[]
  return list.find((c) => c.type === 'Translated')
}

/** The configmaps in an edge's mailbox: live ones and tombstones, and the manifest's version. */
const content = async (edge: Edge) => {
  const mb = await w.mailbox(edge)
  const manifest = await w.hub.deps.projections.getManifest(mb.space.id)
  const cms = (manifest?.entries ?? []).filter((e) => e.resource === 'configmaps')
  return {
    live: cms.filter((e) => !e.removing).map((e) => e.name),
    removing: cms.filter((e) => e.removing).map((e) => e.name),
    version: manifest?.version,
  }
}

/** Runs the translate step over every mailbox with a logger keeping the warnings. */
async function translate(warnings: Warning[]) {
  const controllers = buildControllers({ ...w.hub.deps, log: recorder(warnings) }, BASE)
  const step = controllers.find((c) => c.name === 'translate') as Controller
  const page = await step.listKeys(undefined, 1000)
  const res = await runKeys(step, page.keys, silentLogger)
  expect(res.every((r) => r.ok)).toBe(true)
  await agentsPolled(w.client, w.hub.deps.projections)
  return res
}

const keptWarnings = (warnings: readonly Warning[], key: string) =>
  warnings.filter(
    (x) =>
      x.msg === 'mailboxes kept as they are: a placement does not decode' &&
      x.fields.step === 'translate' &&
      x.fields.key === key
  )

beforeAll(async () => {
  w = await createWorld()
  ws = (await w.client.space(WS)).id
  bad = await seedGoodAndBad(w, { good: goodSpec, bad: badSpec })
}, 120_000)
afterAll(() => w?.close())

describe('translate over an invalid stored EdgePlacement', () => {
  it('keeps the mailboxes it reaches, reports it, and translates the others', async () => {
    const before = await content('e1')
    expect(before.live.sort()).toEqual(['cfg', 'mine'])
    await storeRawPlacement(w.hub, ws, {
      ...(bad as KubeObject),
      spec: { ...badSpec, upsync: 'everything' },
    })
    await w.client.create(WS, CM, configMap('app', 'later'))
    const warnings: Warning[] = []
    const res = await translate(warnings)

    const e1 = await content('e1')
    expect(e1).toEqual(before)
    expect((await content('e2')).live.sort()).toEqual(['cfg', 'later'])
    const e1Key = (await w.mailbox('e1')).name
    expect(res.find((r) => r.key === e1Key)?.outcome).toContain(`held: ${ws}/bad`)

    const reports = invalidReports(warnings, 'translate').filter(
      (r) => r.fields.key === `${ws}/bad`
    )
    expect(reports).toHaveLength(1)
    expect(reports[0]?.fields).toMatchObject({
      kind: 'EdgePlacement',
      issues: [{ path: 'spec.upsync' }],
    })
    expect(keptWarnings(warnings, `${ws}/bad`)).toHaveLength(1)
    const events = await w.client.list(WS, { group: '', version: 'v1', resource: 'events' })
    const invalid = events.filter((e) => e.reason === 'InvalidSpec')
    expect(invalid).toHaveLength(1)
    expect(invalid[0]).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'EdgePlacement', name: 'bad', uid: bad?.metadata.uid },
      message: expect.stringContaining('spec.upsync'),
    })
    expect(await condition('good')).toMatchObject({ status: 'True' })
  })

  it('converges once the placement is valid again', async () => {
    await storeRawPlacement(w.hub, ws, { ...(bad as KubeObject), spec: badSpec })
    const warnings: Warning[] = []
    await translate(warnings)
    expect(keptWarnings(warnings, `${ws}/bad`)).toEqual([])
    expect(await content('e1')).toMatchObject({
      live: expect.arrayContaining(['cfg', 'later', 'mine']),
      removing: [],
    })
  })

  it('keeps the mailboxes a placement delivered to while its slice does not decode', async () => {
    const slice = await w.client.get(WS, PLACEMENT_SLICES, 'bad')
    if (!slice) throw new Error('no slice bad')
    await storeRawSlice(w.hub, ws, { ...slice, destinations: 'e1' } as unknown as KubeObject)
    await w.client.delete(WS, CM, 'mine', { namespace: 'solo' })
    const before = await content('e1')
    const warnings: Warning[] = []
    await translate(warnings)
    expect(await content('e1')).toEqual(before)
    expect(keptWarnings(warnings, `${ws}/bad`)).toHaveLength(1)

    // The where step rewrites the slice; then the deleted object leaves e1 as usual.
    await w.placeAll()
    expect(await content('e1')).toMatchObject({ live: ['cfg', 'later'], removing: ['mine'] })
  })
})
