/**
 * The status a placed object carries back (functions/reconcile-summarize/returned-status.ts) at
 * one destination: the edge's report in the center's generation, and — with no report of its own
 * to return — an agent's problem with the copy stated as a failure kube's tools stop on.
 */
import { describe, expect, it } from 'vitest'
import { currentSpecHash } from '../../../functions/reconcile-summarize/current-spec.ts'
import { statusWant } from '../../../functions/reconcile-summarize/returned-status.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { Destination } from '../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import type { CopyCondition } from '../../../lib/summarize/copy-condition.ts'

const deployment: SourceObject = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespaced: true,
  object: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'shop', namespace: 'shop', generation: 2 },
    spec: { replicas: 2, selector: { matchLabels: { app: 'shop' } } },
    status: { observedGeneration: 1, replicas: 2 },
  } as KubeObject,
}
const dest: Destination = {
  cluster: 'inv',
  locationName: 'florin',
  syncTargetName: 'florin',
  syncTargetUID: 'u1',
}

async function ask(state: Record<string, unknown>, condition: CopyCondition) {
  const entry = {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespace: 'shop',
    name: 'shop',
    hash: 'h',
    specHash: (await currentSpecHash(deployment)) ?? '',
    rv: 5,
    uid: 'copy-uid',
    created: '2026-12-03T00:00:00Z',
    generation: 3,
  }
  return statusWant({
    o: deployment,
    destinations: [dest],
    condition: () => condition,
    seen: {
      facts: () => ({ entry, state: { uid: 'copy-uid', rv: 9, ...state } as never }),
    },
    nowMs: Date.parse('2026-12-03T10:00:00Z'),
  })
}

describe('statusWant at one destination', () => {
  it('returns the edge’s report with the center’s generation', async () => {
    const reported = {
      ...deployment.object,
      status: { observedGeneration: 3, replicas: 2, availableReplicas: 2 },
    } as KubeObject
    const want = await ask({ observedGeneration: 3 }, { state: 'ready', reported })
    expect(want).toEqual({
      status: { observedGeneration: 2, replicas: 2, availableReplicas: 2 },
      statusFrom: '1/1',
    })
  })

  it('states an agent’s problem as a Deployment past its progress deadline', async () => {
    const problem = { reason: 'ApplyFailed', message: 'admission webhook denied the request' }
    const want = await ask(
      { problem },
      { state: 'failed', reason: 'ApplyFailed', message: problem.message }
    )
    expect(want.statusFrom).toBe('0/1')
    expect(want.status?.observedGeneration).toBe(2)
    const progressing = (want.status?.conditions as Record<string, unknown>[] | undefined)?.find(
      (c) => c.type === 'Progressing'
    )
    expect(progressing).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: expect.stringContaining('ApplyFailed'),
    })
  })

  it('leaves the status as it is while nothing current is reported', async () => {
    const want = await ask({ observedGeneration: 2 }, { state: 'pending' })
    expect(want).toEqual({ statusFrom: '0/1' })
  })
})
