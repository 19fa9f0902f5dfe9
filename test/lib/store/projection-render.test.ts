import { describe, expect, it } from 'vitest'
import { CLUSTER_ANNOTATION, type KubeObject } from '../../../lib/kube/types.ts'
import { renderProjected } from '../../../lib/store/projection-render.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'

const entry = (over: Partial<ManifestEntry> = {}): ManifestEntry => ({
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
  ...over,
})

const body = (): KubeObject => ({
  apiVersion: 'apps/v1beta1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns1', labels: { a: 'b' }, annotations: { note: 'x' } },
  spec: { replicas: 2 },
})

describe('renderProjected', () => {
  it('adds the per-copy metadata and keeps the rest of the body', () => {
    expect(renderProjected('mb1', entry(), body())).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'ns1',
        labels: { a: 'b' },
        annotations: { note: 'x', [CLUSTER_ANNOTATION]: 'mb1' },
        uid: 'u-1',
        resourceVersion: '42',
        creationTimestamp: '2030-01-02T03:04:05Z',
        generation: 3,
      },
      spec: { replicas: 2 },
    })
  })

  it.each([
    ['core group', { group: '', version: 'v1' }, 'v1'],
    ['named group', { group: 'edge.kcp.io', version: 'v1alpha1' }, 'edge.kcp.io/v1alpha1'],
  ])('takes apiVersion from the entry (%s)', (_, over, apiVersion) => {
    expect(renderProjected('mb1', entry(over), body()).apiVersion).toBe(apiVersion)
  })

  it('drops the namespace of a cluster-scoped copy and never touches the body', () => {
    const b = body()
    const copy = renderProjected('mb1', entry({ namespace: '' }), b)
    expect(copy.metadata.namespace).toBeUndefined()
    ;(copy.spec as { replicas: number }).replicas = 9
    expect(b).toEqual(body())
    expect(renderProjected('mb1', entry(), b)).toEqual(renderProjected('mb1', entry(), b))
  })

  it('copies a member named __proto__ as a member, as JSON.parse stored it', () => {
    const stored = JSON.parse(
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"__proto__":"x"}}'
    ) as KubeObject
    const copy = renderProjected('mb1', entry({ group: '', resource: 'configmaps' }), stored)
    expect(Object.keys(copy.data as object)).toEqual(['__proto__'])
    expect(JSON.stringify(copy.data)).toBe('{"__proto__":"x"}')
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype)
  })
})
