/**
 * The summarize step within a tight subrequest budget: placing many ConfigMaps on two edges, a
 * summarize run that cannot write all its objects' counts in one invocation writes what fits and
 * defers its key (lib/reconcile/run.ts), never cutting a write between the object and its
 * change-log entry; run again in fresh invocations, as the hooks send deferred keys again, it
 * finishes. After every invocation the workload space's ConfigMap log, replayed from the start,
 * holds exactly the stored ConfigMaps, and the log check finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_PLACEMENTS } from '../../../lib/apis/gvr.ts'
import { runInvocation } from '../../../lib/budget/frames.ts'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { silentLogger } from '../../../lib/log.ts'
import { runBatch } from '../../../lib/reconcile/run.ts'
import { replayLog, storedNames } from '../../helpers/log-replay.ts'
import { CM, configMap, createWorld, NS, placement, type World, WS } from './world.ts'

const OBJECTS = 40
let w: World

beforeAll(async () => {
  w = await createWorld()
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'app', labels: { team: 'app' } },
  })
  for (let i = 0; i < OBJECTS; i++)
    await w.client.create(WS, CM, configMap('app', `cm-${String(i).padStart(2, '0')}`))
  await w.client.create(
    WS,
    EDGE_PLACEMENTS,
    placement('prod', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
      namespaceSelector: { matchLabels: { team: 'app' } },
    })
  )
  await w.placeAll()
  for (const e of ['e1', 'e2'] as const) await w.heartbeat(e)
}, 180_000)
afterAll(() => w?.close())

describe('summarize within a tight budget', () => {
  it('defers what does not fit and leaves the change log complete after every run', async () => {
    const summarize = w.step('summarize')
    const ws = await w.client.space(WS)
    const ref = { cluster: ws.id, group: '', resource: 'configmaps', namespace: 'app' }
    const stats: InvocationStats[] = []
    const budget = {
      subrequests: 120,
      mode: 'strict' as const,
      onEnd: (s: InvocationStats) => stats.push(s),
    }
    let keys = (await summarize.listKeys(undefined, 10_000)).keys
    let runs = 0
    for (; keys.length > 0 && runs < 40; runs++) {
      const { deferred } = await runInvocation('hook:summarize', budget, () =>
        runBatch(summarize, keys, silentLogger)
      )
      const stored = await storedNames(w.hub.store.objects, ref)
      expect(await replayLog(w.hub.store.objects, ref)).toEqual(stored)
      keys = deferred
    }
    expect(keys).toEqual([])
    expect(runs).toBeGreaterThan(1)
    expect(stats.every((s) => !s.exceeded)).toBe(true)
    expect(stats.some((s) => s.refused > 0)).toBe(true)
    const cm = await w.client.get(WS, CM, 'cm-39', 'app')
    expect(JSON.stringify(cm?.metadata)).toContain('edge')
    expect((await w.hub.store.checkLog()).findings).toEqual([])
  }, 180_000)
})
