/**
 * The summarize step over an EdgePlacement that turned invalid in the store (written straight to
 * it, past the API) after it placed an object: `bad` places namespace `solo` (ConfigMap `mine`)
 * on e3, `good` places namespace `app` on e1 and e2. The invalid placement is reported (a warning
 * naming the step, its key and the issue's path) and its status left as it was, while the valid
 * sibling is summarized. It is an unknown, not an absence: `mine` keeps its executing count and its
 * edge-removal finalizer (its slice still says e3, whose mailbox holds the copy), and one warning
 * says what was kept. A valid placement whose slice does not decode keeps the finalizer of a
 * terminating object (where its copies are is unknown) until the slice is rewritten.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { PLACEMENT_SLICES } from '../../../lib/apis/gvr.ts'
import { EDGE_REMOVAL_FINALIZER } from '../../../lib/deletion/lifecycle.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import { EXECUTING_COUNT_ANNOTATION } from '../../../lib/placement/annotations.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import type { Controller } from '../../../lib/reconcile/types.ts'
import { BASE } from '../../helpers/hub.ts'
import {
  invalidReports,
  recorder,
  seedGoodAndBad,
  storeRawPlacement,
  storeRawSlice,
  type Warning,
} from './raw-store.ts'
import { CM, createWorld, type World, WS } from './world.ts'

let w: World
let ws = ''
let bad: KubeObject | undefined
let badStatus: unknown
const badSpec = {
  locationSelectors: [{ matchLabels: { env: 'dev' } }],
  namespaceSelector: { matchLabels: { team: 'solo' } },
}
const goodSpec = {
  locationSelectors: [{ matchLabels: { env: 'prod' } }],
  namespaceSelector: { matchLabels: { team: 'app' } },
}

/** `mine` as stored: its executing count and whether it carries the edge-removal finalizer. */
const mine = async () => {
  const o = await w.client.get(WS, CM, 'mine', 'solo')
  return {
    count: o?.metadata.annotations?.[EXECUTING_COUNT_ANNOTATION],
    finalizer: (o?.metadata.finalizers ?? []).includes(EDGE_REMOVAL_FINALIZER),
    terminating: !!o?.metadata.deletionTimestamp,
  }
}

/** Runs the summarize step over both keys with a logger keeping the warnings. */
async function summarize(warnings: Warning[]) {
  const controllers = buildControllers({ ...w.hub.deps, log: recorder(warnings) }, BASE)
  const step = controllers.find((c) => c.name === 'summarize') as Controller
  const res = await runKeys(step, [`${ws}/good`, `${ws}/bad`], silentLogger)
  expect(res.every((r) => r.ok)).toBe(true)
  return res
}

const keptWarnings = (warnings: readonly Warning[]) =>
  warnings.filter(
    (x) =>
      x.msg === 'removals held: a placement of the space does not decode' &&
      x.fields.step === 'summarize'
  )

beforeAll(async () => {
  w = await createWorld()
  ws = (await w.client.space(WS)).id
  bad = await seedGoodAndBad(w, { good: goodSpec, bad: badSpec }, async () => {
    for (const e of ['e1', 'e2', 'e3'] as const) await w.heartbeat(e)
    await w.summarize()
  })
  badStatus = await w.placementStatus('bad')
}, 120_000)
afterAll(() => w?.close())

describe('summarize over an invalid stored EdgePlacement', () => {
  it('reports it, keeps what rests on it, and summarizes the valid sibling', async () => {
    expect(await mine()).toMatchObject({ count: '0', finalizer: true })
    await storeRawPlacement(w.hub, ws, {
      ...(bad as KubeObject),
      spec: { ...badSpec, namespaceSelector: { matchLabels: 'team=solo' } },
    })
    const warnings: Warning[] = []
    const res = await summarize(warnings)
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
    expect(await w.placementStatus('bad')).toEqual(badStatus)

    expect(await mine()).toMatchObject({ count: '0', finalizer: true })
    const kept = keptWarnings(warnings)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept[0]?.fields).toMatchObject({
      space: ws,
      keys: [`${ws}/bad`],
      executingCountsKept: 1,
    })
  })

  it('lifts no finalizer while a placement of the space has a slice that does not decode', async () => {
    await storeRawPlacement(w.hub, ws, { ...(bad as KubeObject), spec: badSpec })
    const slice = await w.client.get(WS, PLACEMENT_SLICES, 'bad')
    if (!slice) throw new Error('no slice bad')
    await storeRawSlice(w.hub, ws, { ...slice, destinations: 'e3' } as unknown as KubeObject)
    await w.client.delete(WS, CM, 'mine', { namespace: 'solo' })
    const warnings: Warning[] = []
    await summarize(warnings)
    expect(await mine()).toMatchObject({ terminating: true, finalizer: true })
    expect(keptWarnings(warnings)[0]?.fields).toMatchObject({ finalizersKept: 1 })
  })
})
