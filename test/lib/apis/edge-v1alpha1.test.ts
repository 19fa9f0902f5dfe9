import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { LocationSchema, SyncTargetSchema } from '../../../lib/apis/edge-inventory.ts'
import {
  CustomizerSchema,
  EDGE_SCHEMAS,
  EdgePlacementSchema,
  SinglePlacementSliceSchema,
  SyncerConfigSchema,
} from '../../../lib/apis/edge-v1alpha1.ts'
import { createRegistry } from '../../../lib/kube/registry.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { validateObject } from '../../../lib/kube/validate.ts'

// KubeStellar example1 (v0.5.0) manifests, as published in its docs.
const EXAMPLE1 = `
apiVersion: edge.kcp.io/v1alpha1
kind: SyncTarget
metadata:
  name: guilder
  labels: {id: guilder, loc-name: guilder, env: prod, extended: si}
---
apiVersion: edge.kcp.io/v1alpha1
kind: Location
metadata:
  name: guilder
  labels: {loc-name: guilder, env: prod, extended: si}
spec:
  resource: {group: edge.kcp.io, version: v1alpha1, resource: synctargets}
  instanceSelector:
    matchLabels: {id: guilder}
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata:
  name: edge-placement-c
spec:
  locationSelectors:
  - matchLabels: {"env":"prod"}
  namespaceSelector:
    matchLabels: {"common":"si"}
  nonNamespacedObjects:
  - apiGroup: apis.kcp.io
    resources: [ "apibindings" ]
    resourceNames: [ "bind-kubernetes", "bind-apps" ]
  upsync:
  - apiGroup: "group1.test"
    resources: ["sprockets", "flanges"]
    namespaces: ["orbital"]
    names: ["george", "cosmo"]
  - apiGroup: "group2.test"
    resources: ["cogs"]
    names: ["william"]
---
apiVersion: edge.kcp.io/v1alpha1
kind: SinglePlacementSlice
metadata:
  name: edge-placement-c
  ownerReferences:
  - apiVersion: edge.kcp.io/v1alpha1
    kind: EdgePlacement
    name: edge-placement-c
    uid: 199cfe1e-48d9-4351-af5c-e66c83bf50dd
destinations:
- cluster: apmziqj9p9fqlflm
  locationName: florin
  syncTargetName: florin
  syncTargetUID: b8c64c64-070c-435b-b3bd-9c0f0c040a54
---
apiVersion: edge.kcp.io/v1alpha1
kind: SyncerConfig
metadata:
  name: the-one
spec:
  namespaceScope:
    namespaces: [commonstuff]
    resources:
    - {apiVersion: v1, group: "", resource: configmaps}
    - {apiVersion: v2, group: autoscaling, resource: horizontalpodautoscalers}
  clusterScope:
  - {apiVersion: v1alpha1, group: apis.kcp.io, resource: apibindings, objects: [bind-kubernetes]}
  upsync:
  - apiGroup: group2.test
    names: [william]
    resources: [cogs]
status: {}
---
apiVersion: edge.kcp.io/v1alpha1
kind: Customizer
metadata:
  namespace: commonstuff
  name: example-customizer
  annotations:
    edge.kcp.io/expand-parameters: "true"
replacements:
- path: "$.spec.template.spec.containers.0.env.0.value"
  value: '"env is %(env)"'
---
# edgeplane's status summarization kinds (not in KubeStellar's example1)
apiVersion: edge.kcp.io/v1alpha1
kind: Summarizer
metadata: {namespace: commonstuff, name: ready-by-env}
spec:
  subject: {group: apps, resource: deployments}
  groupBy: [{name: env, locationLabel: env}]
  aggregations:
  - {name: copies, type: Count}
  - {name: ready, type: Sum, jsonPath: $.status.readyReplicas}
---
apiVersion: edge.kcp.io/v1alpha1
kind: StatusSummary
metadata: {namespace: commonstuff, name: ready-by-env}
summary:
  summarizerGeneration: 1
  objects: 1
  copies: 2
  reported: 2
  pending: 0
  failed: 0
  stale: 0
  groups:
  - groupedBy: [{name: env, value: prod}]
    count: 2
    aggregates: [{name: copies, value: 2}, {name: ready, value: 4}]
`

const examples = parseAllDocuments(EXAMPLE1).map((d) => d.toJS() as KubeObject)
const registry = createRegistry([])
const check = (obj: KubeObject, strict = true) => {
  const info = registry.byKind('edge.kcp.io', obj.kind)
  if (!info) throw new Error(`no kind ${obj.kind}`)
  return validateObject(info, 'v1alpha1', obj, { strict })
}
const example = (kind: string): KubeObject => {
  const found = examples.find((e) => e.kind === kind)
  if (!found) throw new Error(kind)
  return structuredClone(found)
}

describe('edge.kcp.io/v1alpha1 schemas', () => {
  it('accept every example1 object', () => {
    expect(examples.map((e) => e.kind)).toEqual(Object.keys(EDGE_SCHEMAS))
    for (const obj of examples) {
      expect(check(obj), obj.kind).toMatchObject({
        causes: [],
        warnings: [],
        unknownFields: [],
        pruned: [],
      })
      expect(
        EDGE_SCHEMAS[obj.kind as keyof typeof EDGE_SCHEMAS].safeParse(obj).success,
        obj.kind
      ).toBe(true)
    }
  })

  it('parse into typed values', () => {
    const ep = EdgePlacementSchema.parse(example('EdgePlacement'))
    expect(ep.spec?.upsync?.[1]?.names).toEqual(['william'])
    expect(ep.spec?.namespaceSelector?.matchLabels).toEqual({ common: 'si' })
    expect(
      SinglePlacementSliceSchema.parse(example('SinglePlacementSlice')).destinations?.[0]
        ?.syncTargetName
    ).toBe('florin')
    expect(
      SyncerConfigSchema.parse(example('SyncerConfig')).spec?.clusterScope?.[0]?.objects
    ).toEqual(['bind-kubernetes'])
    expect(CustomizerSchema.parse(example('Customizer')).replacements?.[0]?.value).toBe(
      '"env is %(env)"'
    )
    expect(LocationSchema.parse(example('Location')).spec.instanceSelector?.matchLabels).toEqual({
      id: 'guilder',
    })
    expect(SyncTargetSchema.parse(example('SyncTarget')).metadata.labels?.id).toBe('guilder')
  })
})

describe('edge validation errors name the field', () => {
  it('EdgePlacement: bad operator, missing values, forbidden values, bad key', () => {
    const ep = example('EdgePlacement')
    ep.spec = {
      locationSelectors: [
        {
          matchExpressions: [
            { key: 'env', operator: 'Equals', values: ['prod'] },
            { key: 'env', operator: 'In' },
            { key: 'env', operator: 'Exists', values: ['x'] },
            { key: 'bad key', operator: 'Exists' },
          ],
        },
      ],
      namespaceSelector: { matchLabels: { common: 'bad value!' } },
    }
    const causes = check(ep).causes
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.locationSelectors[0].matchExpressions[0].operator', 'FieldValueNotSupported'],
      ['spec.locationSelectors[0].matchExpressions[1].values', 'FieldValueRequired'],
      ['spec.locationSelectors[0].matchExpressions[2].values', 'FieldValueForbidden'],
      ['spec.locationSelectors[0].matchExpressions[3].key', 'FieldValueInvalid'],
      ['spec.namespaceSelector.matchLabels', 'FieldValueInvalid'],
    ])
    expect(causes[0]?.message).toBe(
      'Unsupported value: "Equals": supported values: "In", "NotIn", "Exists", "DoesNotExist"'
    )
  })

  it('EdgePlacement: wrong types and unknown fields', () => {
    const ep = example('EdgePlacement')
    ep.spec = {
      locationSelectors: { matchLabels: {} },
      upsync: [{ apiGroup: 5, resources: 'cogs' }],
      downsync: [],
    }
    const strict = check(ep)
    expect(strict.causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.locationSelectors', 'FieldValueTypeInvalid'],
      ['spec.upsync[0].apiGroup', 'FieldValueTypeInvalid'],
      ['spec.upsync[0].resources', 'FieldValueTypeInvalid'],
      ['spec.downsync', 'FieldValueInvalid'],
    ])
    expect(strict.causes[0]?.message).toBe(
      'Invalid value: "object": spec.locationSelectors in body must be of type array: "object"'
    )
    const warn = check(ep, false)
    expect(warn.warnings).toEqual(['unknown field "spec.downsync"'])
  })

  it('EdgePlacement status fields are typed', () => {
    const ep = example('EdgePlacement')
    ep.status = {
      specGeneration: 1.5,
      matchingLocationCount: 2,
      conditions: [{ type: 'Ready', status: 'Maybe' }],
    }
    expect(check(ep).causes.map((c) => [c.field, c.reason])).toEqual([
      ['status.specGeneration', 'FieldValueTypeInvalid'],
      ['status.conditions[0].status', 'FieldValueNotSupported'],
    ])
  })

  it('Location: spec and spec.resource are required', () => {
    const loc = example('Location')
    delete loc.spec
    expect(check(loc).causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec' },
    ])
    const noResource = example('Location')
    noResource.spec = { instanceSelector: { matchLabels: { id: 'x' } } }
    expect(check(noResource).causes.map((c) => c.field)).toEqual(['spec.resource'])
    const partial = example('Location')
    partial.spec = { resource: { group: 'edge.kcp.io', resource: 'synctargets' } }
    expect(check(partial).causes.map((c) => c.field)).toEqual(['spec.resource.version'])
  })

  it('SyncTarget: spec and status fields', () => {
    const st = example('SyncTarget')
    st.spec = {
      unschedulable: 'no',
      supportedAPIExports: [{ path: 'root:compute' }],
      cells: { a: 'b' },
    }
    st.status = {
      allocatable: { cpu: '4', pods: 110 },
      syncedResources: [{ resource: 'deployments', state: 'Lost' }],
      lastSyncerHeartbeatTime: '2023-04-23T05:39:56Z',
    }
    expect(check(st).causes.map((c) => [c.field, c.reason])).toEqual([
      ['spec.unschedulable', 'FieldValueTypeInvalid'],
      ['spec.supportedAPIExports[0].export', 'FieldValueRequired'],
      ['status.syncedResources[0].state', 'FieldValueNotSupported'],
    ])
  })

  it('SinglePlacementSlice: destinations at top level, no spec', () => {
    const sps = example('SinglePlacementSlice')
    sps.destinations = [{ cluster: 'c', locationName: 'l' }]
    sps.spec = {}
    const result = check(sps)
    expect(result.causes.map((c) => [c.field, c.reason])).toEqual([
      ['destinations[0].syncTargetName', 'FieldValueRequired'],
      ['spec', 'FieldValueInvalid'],
    ])
    expect(result.unknownFields).toEqual(['spec'])
  })

  it('SyncerConfig: resources need group, resource and apiVersion', () => {
    const sc = example('SyncerConfig')
    sc.spec = {
      namespaceScope: { namespaces: ['a'], resources: [{ group: '', resource: 'configmaps' }] },
      namespacedObjects: [
        {
          group: '',
          resource: 'secrets',
          apiVersion: 'v1',
          objectsByNamespace: [{ names: ['x'] }],
        },
      ],
    }
    sc.status = { lastSyncerHeartbeatTime: 7 }
    expect(check(sc).causes.map((c) => c.field)).toEqual([
      'spec.namespaceScope.resources[0].apiVersion',
      'spec.namespacedObjects[0].objectsByNamespace[0].namespace',
      'status.lastSyncerHeartbeatTime',
    ])
  })

  it('Customizer: path must start with $, paths unique, replacements top-level', () => {
    const cz = example('Customizer')
    cz.replacements = [
      { path: 'spec.x', value: '1' },
      { path: '$.a', value: '1' },
      { path: '$.a', value: '2' },
      { path: '$.b' },
    ]
    const causes = check(cz).causes
    expect(causes.map((c) => [c.field, c.reason])).toEqual([
      ['replacements[0].path', 'FieldValueInvalid'],
      ['replacements[3].value', 'FieldValueRequired'],
    ])
    expect(causes[0]?.message).toBe('Invalid value: "spec.x": must be a JSONPath starting with "$"')
    cz.replacements = [
      { path: '$.a', value: '1' },
      { path: '$.a', value: '2' },
    ]
    expect(check(cz).causes).toEqual([
      {
        reason: 'FieldValueDuplicate',
        message: 'Duplicate value: "$.a"',
        field: 'replacements[1].path',
      },
    ])
  })

  it('Customizer: namespace required, metadata rules apply', () => {
    const cz = example('Customizer')
    cz.metadata = { name: 'Bad_Name', labels: { ok: 5 } } as unknown as KubeObject['metadata']
    expect(check(cz).causes.map((c) => c.field)).toEqual([
      'metadata.name',
      'metadata.namespace',
      'metadata.labels[ok]',
    ])
  })
})
