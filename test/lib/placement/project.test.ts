import { describe, expect, it } from 'vitest'
import { fillBuiltinDefaults } from '../../../lib/kube/defaults/builtin-defaults.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { PROJECTED_LABEL } from '../../../lib/placement/annotations.ts'
import { impliedNamespace, projectBody } from '../../../lib/placement/project.ts'

const SOURCE: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    generateName: 'we',
    namespace: 'shop',
    uid: 'u-1',
    resourceVersion: '42',
    generation: 3,
    creationTimestamp: '2026-01-01T00:00:00Z',
    deletionGracePeriodSeconds: 30,
    selfLink: '/apis/apps/v1/namespaces/shop/deployments/web',
    finalizers: ['example.com/hold'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-0' }],
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
    labels: { tier: 'front', app: 'web', 'kcp.io/sharded': 'x' },
    annotations: {
      'kcp.io/cluster': 'wmw1',
      'edge.kcp.io/customizer': 'tweak',
      'note.example.com/why': 'because',
    },
  },
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  status: { replicas: 2, readyReplicas: 1 },
}

describe('projectBody on create', () => {
  const body = projectBody(SOURCE)

  it("leaves kube's defaults, which the center filled, for each edge to fill", () => {
    const stored = fillBuiltinDefaults(SOURCE)
    expect(stored.spec).not.toEqual(SOURCE.spec)
    expect(projectBody(stored)).toEqual(body)
    const service: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'shop' },
      spec: { ports: [{ port: 80, targetPort: 8080 }], type: 'NodePort' },
    }
    expect(projectBody(fillBuiltinDefaults(service)).spec).toEqual(service.spec)
  })

  it('keeps only name, namespace, labels and annotations, system keys dropped, projected added', () => {
    expect(body).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'shop',
        labels: { app: 'web', [PROJECTED_LABEL]: 'yes', tier: 'front' },
        annotations: { 'edge.kcp.io/customizer': 'tweak', 'note.example.com/why': 'because' },
      },
      spec: SOURCE.spec,
    })
  })

  const cleared = [
    'generateName',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
    'finalizers',
    'ownerReferences',
    'managedFields',
  ] as const
  it.each(cleared)('clears metadata.%s', (field) => {
    const withDeletion = projectBody({
      ...SOURCE,
      metadata: { ...SOURCE.metadata, deletionTimestamp: '2026-02-02T00:00:00Z' },
    })
    expect(withDeletion.metadata).not.toHaveProperty(field)
  })

  it('never copies status', () => {
    expect(body).not.toHaveProperty('status')
  })

  it('orders keys deterministically and copies deeply', () => {
    expect(Object.keys(body.metadata.labels ?? {})).toEqual(['app', PROJECTED_LABEL, 'tier'])
    const again = projectBody(structuredClone(SOURCE))
    expect(JSON.stringify(again)).toBe(JSON.stringify(body))
    const mine = projectBody(SOURCE)
    ;(mine.spec as { replicas: number }).replicas = 9
    expect((SOURCE.spec as { replicas: number }).replicas).toBe(2)
  })

  it('orders the content sections after apiVersion, kind and metadata, by name', () => {
    const cm = projectBody({
      kind: 'ConfigMap',
      data: { a: '1' },
      apiVersion: 'v1',
      metadata: { name: 'c', namespace: 'n' },
      binaryData: {},
      immutable: true,
    })
    expect(Object.keys(cm)).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'binaryData',
      'data',
      'immutable',
    ])
  })

  it('omits empty annotations and a namespace of a cluster-scoped object', () => {
    const cr = projectBody({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r', annotations: { 'kcp.io/cluster': 'w' } },
      rules: [],
    })
    expect(cr.metadata).toEqual({ name: 'r', labels: { [PROJECTED_LABEL]: 'yes' } })
  })

  it('sets projected=yes even when the source says otherwise', () => {
    const b = projectBody({
      ...SOURCE,
      metadata: { name: 'x', labels: { [PROJECTED_LABEL]: 'no' } },
    })
    expect(b.metadata.labels).toEqual({ [PROJECTED_LABEL]: 'yes' })
  })
})

describe('projectBody on update', () => {
  const PREVIOUS: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: 'copy-uid',
      resourceVersion: '7',
      labels: {
        app: 'old',
        'edge-only': 'kept',
        'kcp.io/sharded': 'mailbox',
        [PROJECTED_LABEL]: 'yes',
      },
      annotations: {
        'kcp.io/cluster': 'mb1',
        'set.by/edge': 'kept',
        'note.example.com/why': 'old',
      },
    },
    spec: { replicas: 1, paused: true },
    strategyOnlyInCopy: { x: 1 },
    status: { replicas: 1 },
  }

  type Case = [label: string, source: KubeObject, check: (b: KubeObject) => void]
  const cases: Case[] = [
    [
      'source sections replace the previous ones',
      SOURCE,
      (b) => expect(b.spec).toEqual(SOURCE.spec),
    ],
    [
      'sections absent from the source are removed',
      SOURCE,
      (b) => expect(b).not.toHaveProperty('strategyOnlyInCopy'),
    ],
    [
      'status is never copied, neither from the source nor kept from the copy',
      SOURCE,
      (b) => expect(b).not.toHaveProperty('status'),
    ],
    [
      'labels merge: source overwrites, copy-only keys stay, system keys stay as in the copy',
      SOURCE,
      (b) =>
        expect(b.metadata.labels).toEqual({
          app: 'web',
          'edge-only': 'kept',
          'kcp.io/sharded': 'mailbox',
          [PROJECTED_LABEL]: 'yes',
          tier: 'front',
        }),
    ],
    [
      'annotations merge the same way (kcp.io/cluster never taken from the source)',
      SOURCE,
      (b) =>
        expect(b.metadata.annotations).toEqual({
          'edge.kcp.io/customizer': 'tweak',
          'kcp.io/cluster': 'mb1',
          'note.example.com/why': 'because',
          'set.by/edge': 'kept',
        }),
    ],
    [
      'per-copy metadata of the copy is not in the body',
      SOURCE,
      (b) =>
        expect(Object.keys(b.metadata)).toEqual(['name', 'namespace', 'labels', 'annotations']),
    ],
    [
      'apiVersion and kind come from the source',
      { ...SOURCE, apiVersion: 'apps/v1beta2' },
      (b) => expect(b.apiVersion).toBe('apps/v1beta2'),
    ],
    [
      'projected=yes is restored if the copy lost it',
      { ...SOURCE, metadata: { name: 'web', namespace: 'shop' } },
      (b) => expect(b.metadata.labels?.[PROJECTED_LABEL]).toBe('yes'),
    ],
  ]
  it.each(cases)('%s', (_label, source, check) => {
    check(projectBody(source, PREVIOUS))
  })

  it('is deterministic whatever the key order of the inputs', () => {
    const shuffled: KubeObject = {
      ...PREVIOUS,
      metadata: {
        ...PREVIOUS.metadata,
        labels: Object.fromEntries(Object.entries(PREVIOUS.metadata.labels ?? {}).reverse()),
      },
    }
    expect(JSON.stringify(projectBody(SOURCE, shuffled))).toBe(
      JSON.stringify(projectBody(SOURCE, PREVIOUS))
    )
  })

  it('does not modify its inputs', () => {
    const before = structuredClone(PREVIOUS)
    const sourceBefore = structuredClone(SOURCE)
    projectBody(SOURCE, PREVIOUS)
    expect(PREVIOUS).toEqual(before)
    expect(SOURCE).toEqual(sourceBefore)
  })
})

describe('impliedNamespace', () => {
  const cases: [label: string, previous: KubeObject | undefined, want: KubeObject][] = [
    [
      'fresh',
      undefined,
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'shop', labels: { [PROJECTED_LABEL]: 'yes' } },
      },
    ],
    [
      'keeps what the copy had, drops its spec',
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'shop',
          uid: 'x',
          labels: { app: 'shop', [PROJECTED_LABEL]: 'yes' },
          annotations: { owner: 'team-a' },
        },
        spec: { finalizers: ['kubernetes'] },
      },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'shop',
          labels: { app: 'shop', [PROJECTED_LABEL]: 'yes' },
          annotations: { owner: 'team-a' },
        },
      },
    ],
  ]
  it.each(cases)('%s', (_label, previous, want) => {
    expect(impliedNamespace('shop', previous)).toEqual(want)
  })
})
