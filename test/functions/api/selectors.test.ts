/**
 * objectPredicate: label and field selectors together, and the per-kind fields whose values kube
 * computes (Event `source`, Job `status.successful`) or defaults (Secret `type` Opaque, Pod
 * `status.phase` Pending, Node `spec.unschedulable` false, ReplicaSet `status.replicas` 0).
 */
import { describe, expect, it } from 'vitest'
import { objectPredicate } from '../../../functions/api/selectors.ts'
import { ApiError } from '../../../lib/errors.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const obj = (kind: string, name: string, rest: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind, metadata: { name, namespace: 'ns' }, ...rest }) as KubeObject

function names(kind: string, field: string, objects: KubeObject[]): string[] {
  const p = objectPredicate(kind, undefined, field)
  if (!p) throw new Error('no predicate')
  return objects.filter(p).map((o) => o.metadata.name ?? '')
}

describe('objectPredicate', () => {
  it('is undefined without selectors and combines labels with fields', () => {
    expect(objectPredicate('ConfigMap', undefined, undefined)).toBeUndefined()
    const p = objectPredicate('ConfigMap', 'app=web', 'metadata.name=a')
    const a = { ...obj('ConfigMap', 'a'), metadata: { name: 'a', labels: { app: 'web' } } }
    const b = { ...obj('ConfigMap', 'b'), metadata: { name: 'b', labels: { app: 'web' } } }
    expect([a, b].filter((o) => p?.(o)).map((o) => o.metadata.name)).toEqual(['a'])
  })

  it('Event source: the source component, else the reporting component', () => {
    const events = [
      obj('Event', 'old-style', { source: { component: 'kubelet' } }),
      obj('Event', 'new-style', { reportingComponent: 'kubelet' }),
      obj('Event', 'other', { source: { component: 'scheduler' } }),
    ]
    expect(names('Event', 'source=kubelet', events)).toEqual(['old-style', 'new-style'])
    expect(names('Event', 'reportingComponent=kubelet', events)).toEqual(['new-style'])
    expect(names('Event', 'involvedObject.kind=Pod', events)).toEqual([])
  })

  it('Secret type reads Opaque when the secret has none', () => {
    const secrets = [obj('Secret', 'plain'), obj('Secret', 'tls', { type: 'kubernetes.io/tls' })]
    expect(names('Secret', 'type=Opaque', secrets)).toEqual(['plain'])
    expect(names('Secret', 'type!=Opaque', secrets)).toEqual(['tls'])
  })

  it('Pod status.phase reads Pending without a status', () => {
    const pods = [obj('Pod', 'new'), obj('Pod', 'up', { status: { phase: 'Running' } })]
    expect(names('Pod', 'status.phase=Pending', pods)).toEqual(['new'])
    expect(names('Pod', 'status.phase=Running', pods)).toEqual(['up'])
  })

  it('counts and booleans read as kube formats them', () => {
    const jobs = [obj('Job', 'fresh'), obj('Job', 'done', { status: { succeeded: 1 } })]
    expect(names('Job', 'status.successful=0', jobs)).toEqual(['fresh'])
    expect(names('Job', 'status.successful=1', jobs)).toEqual(['done'])
    const sets = [obj('ReplicaSet', 'empty'), obj('ReplicaSet', 'two', { status: { replicas: 2 } })]
    expect(names('ReplicaSet', 'status.replicas=0', sets)).toEqual(['empty'])
    const nodes = [obj('Node', 'n1'), obj('Node', 'n2', { spec: { unschedulable: true } })]
    expect(names('Node', 'spec.unschedulable=false', nodes)).toEqual(['n1'])
    expect(names('Node', 'spec.unschedulable=true', nodes)).toEqual(['n2'])
  })

  it('refuses fields the kind does not offer', () => {
    expect(() => objectPredicate('ConfigMap', undefined, 'type=Opaque')).toThrow(ApiError)
    expect(() => objectPredicate('Secret', undefined, 'data.x=1')).toThrow(
      'field label not supported: data.x'
    )
  })
})
