import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  ASSOCIATED_ANNOTATION,
  renderProjected,
  SYNC_PROBLEM_ANNOTATION,
} from '../../../lib/store/projection-render.ts'
import type { ManifestEntry, StoredCopyState } from '../../../lib/store/projection-types.ts'

const entry: ManifestEntry = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespace: 'ns1',
  name: 'web',
  hash: 'h',
  specHash: 's',
  rv: 42,
  uid: 'u-1',
  created: '2030-01-02T03:04:05Z',
  generation: 3,
}
const body: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns1', annotations: { note: 'x' } },
  spec: { replicas: 2 },
}
const state = (over: Partial<StoredCopyState> = {}): StoredCopyState => ({
  uid: 'u-1',
  rv: 50,
  status: { replicas: 2, observedGeneration: 9 },
  observedGeneration: 3,
  ...over,
})

describe('renderProjected with a copy state', () => {
  it('shows the reported status with the reported generation and the later rv', () => {
    const copy = renderProjected('mb1', entry, body, state())
    expect(copy.status).toEqual({ replicas: 2, observedGeneration: 3 })
    expect(copy.metadata.resourceVersion).toBe('50')
    expect(copy.metadata.annotations).toEqual({ note: 'x', 'kcp.io/cluster': 'mb1' })
    expect(
      renderProjected('mb1', { ...entry, rv: 60 }, body, state()).metadata.resourceVersion
    ).toBe('60')
  })

  it('adds associated objects and a problem as annotations', () => {
    const associated = [{ kind: 'Pod', namespace: 'ns1', name: 'web-1', phase: 'Running' }]
    const problem = { reason: 'ApplyFailed', message: 'denied' }
    const copy = renderProjected('mb1', entry, body, state({ associated, problem }))
    expect(copy.metadata.annotations).toEqual({
      note: 'x',
      'kcp.io/cluster': 'mb1',
      [ASSOCIATED_ANNOTATION]:
        '[{"kind":"Pod","namespace":"ns1","name":"web-1","phase":"Running"}]',
      [SYNC_PROBLEM_ANNOTATION]: 'ApplyFailed: denied',
    })
  })

  it('ignores the state of another copy and shows no empty status', () => {
    const other = renderProjected('mb1', entry, body, state({ uid: 'u-0' }))
    expect(other).toEqual(renderProjected('mb1', entry, body))
    expect(other.status).toBeUndefined()
    const empty = renderProjected(
      'mb1',
      entry,
      body,
      state({ status: {}, observedGeneration: undefined })
    )
    expect(empty.status).toBeUndefined()
    expect(empty.metadata.resourceVersion).toBe('50')
  })
})
