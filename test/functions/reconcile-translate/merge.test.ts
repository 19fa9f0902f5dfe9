/**
 * Merging one object key from several workload spaces, field class by field class as seed 003
 * states it: labels, annotations and ownerReferences key by key, finalizers united, managedFields
 * dropped, spec and status monoliths (missing = null), other fields key by key when all are maps
 * and monoliths otherwise; "most recent" by server-written values only: the authored
 * resourceVersion (authored-order.ts), else the resourceVersion as an integer, never a
 * managedFields time a client wrote.
 */
import { describe, expect, it } from 'vitest'
import { mergeObjects } from '../../../functions/reconcile-translate/merge.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const obj = (rv: string, extra: Partial<KubeObject> = {}, meta = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  ...extra,
  metadata: { name: 'cm', namespace: 'ns', resourceVersion: rv, ...meta },
})
const fields = (r: ReturnType<typeof mergeObjects>) => r.conflicts.map((c) => c.field)

describe('mergeObjects', () => {
  it('passes one source through without managedFields or conflicts', () => {
    const one = obj('5', { data: { a: '1' } }, { managedFields: [{ manager: 'm' }] })
    const r = mergeObjects([{ id: 's1', object: one }])
    expect(r.conflicts).toEqual([])
    expect(r.object.data).toEqual({ a: '1' })
    expect(r.object.metadata.managedFields).toBeUndefined()
  })

  it('merges labels and annotations key by key, the most recent value winning a conflict', () => {
    const a = obj('100', {}, { labels: { app: 'x', only: 'a' }, annotations: { note: 'same' } })
    const b = obj('99', {}, { labels: { app: 'y', other: 'b' }, annotations: { note: 'same' } })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.metadata.labels).toEqual({ app: 'x', only: 'a', other: 'b' })
    expect(r.object.metadata.annotations).toEqual({ note: 'same' })
    expect(r.conflicts).toEqual([{ field: 'metadata.labels[app]', sources: ['A', 'B'] }])
  })

  it("goes by the authored resourceVersion: the steps' own later writes do not make a source newer", () => {
    // A's content was first seen at 150; the control plane then wrote it (a finalizer, a count),
    // which gave it the higher resourceVersion 300. B's content was first seen at 200: B is newer.
    const r = mergeObjects([
      { id: 'A', object: obj('300', { data: { k: 'a' } }), authored: 150n },
      { id: 'B', object: obj('200', { data: { k: 'b' } }), authored: 200n },
    ])
    expect(r.object.data).toEqual({ k: 'b' })
    expect(r.newest).toBe('B')
    expect(r.conflicts).toEqual([{ field: 'data[k]', sources: ['A', 'B'] }])
  })

  it('is not pinned by a managedFields time a client wrote (2099)', () => {
    const pinned = [{ manager: 'kubectl', operation: 'Update', time: '2099-01-01T00:00:00Z' }]
    const later = [{ manager: 'kubectl', operation: 'Update', time: '2026-11-25T10:00:00Z' }]
    const r = mergeObjects([
      { id: 'A', object: obj('100', { data: { k: 'a' } }, { managedFields: pinned }) },
      { id: 'B', object: obj('101', { data: { k: 'b' } }, { managedFields: later }) },
    ])
    expect(r.newest).toBe('B')
    expect(r.object.data).toEqual({ k: 'b' })
    const remembered = mergeObjects([
      {
        id: 'A',
        object: obj('500', { data: { k: 'a' } }, { managedFields: pinned }),
        authored: 90n,
      },
      {
        id: 'B',
        object: obj('101', { data: { k: 'b' } }, { managedFields: later }),
        authored: 101n,
      },
    ])
    expect(remembered.newest).toBe('B')
  })

  it('falls back to the resourceVersion when the authored resourceVersions are equal or absent', () => {
    const same = mergeObjects([
      { id: 'A', object: obj('12', { data: { k: 'a' } }), authored: 10n },
      { id: 'B', object: obj('11', { data: { k: 'b' } }), authored: 10n },
    ])
    expect(same.newest).toBe('A')
    const none = mergeObjects([
      { id: 'A', object: obj('11', { data: { k: 'a' } }) },
      { id: 'B', object: obj('12', { data: { k: 'b' } }) },
    ])
    expect(none.newest).toBe('B')
    expect(none.object.data).toEqual({ k: 'b' })
  })

  it('orders by resourceVersion as an integer, not as text', () => {
    const a = obj('9', {}, { labels: { k: 'nine' } })
    const b = obj('10', {}, { labels: { k: 'ten' } })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.metadata.labels).toEqual({ k: 'ten' })
  })

  it('merges ownerReferences keyed by apiVersion, kind and name', () => {
    const ref = (name: string, uid: string) => ({ apiVersion: 'v1', kind: 'Pod', name, uid })
    const a = obj('2', {}, { ownerReferences: [ref('p', 'u-a'), ref('q', 'u-q')] })
    const b = obj('1', {}, { ownerReferences: [ref('p', 'u-b'), ref('r', 'u-r')] })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    const uids = (r.object.metadata.ownerReferences ?? []).map((o) => `${o.name}=${o.uid}`)
    expect(uids).toEqual(['p=u-a', 'q=u-q', 'r=u-r'])
    expect(fields(r)).toEqual(['metadata.ownerReferences[v1/Pod/p]'])
  })

  it('unites finalizers and drops managedFields', () => {
    const a = obj('2', {}, { finalizers: ['x/a', 'x/both'], managedFields: [{ manager: 'a' }] })
    const b = obj('1', {}, { finalizers: ['x/both', 'x/b'] })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.metadata.finalizers).toEqual(['x/a', 'x/b', 'x/both'])
    expect(r.object.metadata.managedFields).toBeUndefined()
    expect(r.conflicts).toEqual([])
  })

  it('treats spec as a monolith: unequal JSON is a conflict and the newest wins whole', () => {
    const a = obj('1', { spec: { replicas: 1, paused: true } })
    const b = obj('2', { spec: { replicas: 3 } })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.spec).toEqual({ replicas: 3 })
    expect(r.conflicts).toEqual([{ field: 'spec', sources: ['A', 'B'] }])
    const same = mergeObjects([
      { id: 'A', object: obj('1', { spec: { x: [1, { y: 2 }] } }) },
      { id: 'B', object: obj('2', { spec: { x: [1, { y: 2 }] } }) },
    ])
    expect(same.conflicts).toEqual([])
  })

  it('counts a missing spec or status as null', () => {
    const withStatus = obj('1', { status: { phase: 'Up' } })
    const without = obj('2')
    const r = mergeObjects([
      { id: 'A', object: withStatus },
      { id: 'B', object: without },
    ])
    expect(fields(r)).toEqual(['status'])
    expect(r.object.status).toBeUndefined()
    const none = mergeObjects([
      { id: 'A', object: obj('1') },
      { id: 'B', object: obj('2', { status: null }) },
    ])
    expect(none.conflicts).toEqual([])
  })

  it('merges other fields key by key when all are maps', () => {
    const a = obj('1', { data: { a: '1', same: 's' } })
    const b = obj('2', { data: { a: '2', b: 'b', same: 's' } })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.data).toEqual({ a: '2', b: 'b', same: 's' })
    expect(r.conflicts).toEqual([{ field: 'data[a]', sources: ['A', 'B'] }])
  })

  it('treats other fields as monoliths when they are not all maps; absent ones add nothing', () => {
    const a = obj('2', { rules: [{ verbs: ['get'] }], data: { k: 'v' } })
    const b = obj('1', { rules: [{ verbs: ['list'] }], immutable: true })
    const r = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
    ])
    expect(r.object.rules).toEqual([{ verbs: ['get'] }])
    expect(r.object.immutable).toBe(true)
    expect(r.object.data).toEqual({ k: 'v' })
    expect(fields(r)).toEqual(['rules'])
    const mixed = mergeObjects([
      { id: 'A', object: obj('1', { x: { k: 1 } }) },
      { id: 'B', object: obj('2', { x: 'text' }) },
    ])
    expect(mixed.object.x).toBe('text')
    expect(fields(mixed)).toEqual(['x'])
  })

  it('does not depend on the order of its input', () => {
    const a = obj('3', { data: { a: '1' } }, { labels: { l: 'a' } })
    const b = obj('7', { data: { a: '2' } }, { labels: { l: 'b' } })
    const c = obj('5', { data: { c: '3' } })
    const one = mergeObjects([
      { id: 'A', object: a },
      { id: 'B', object: b },
      { id: 'C', object: c },
    ])
    const two = mergeObjects([
      { id: 'C', object: c },
      { id: 'B', object: b },
      { id: 'A', object: a },
    ])
    expect(two).toEqual(one)
    expect(one.object.metadata.resourceVersion).toBe('7')
  })
})
