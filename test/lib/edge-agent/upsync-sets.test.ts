import { describe, expect, it } from 'vitest'
import type { DesiredCopy } from '../../../lib/edge-agent/desired-store.ts'
import { indexDiscovery } from '../../../lib/edge-agent/discovery.ts'
import type { ServedResource } from '../../../lib/edge-agent/kube-client.ts'
import { upsyncSetsOf, upsyncTargets } from '../../../lib/edge-agent/upsync-sets.ts'
import { parseApiVersion } from '../../../lib/kube/resource-info.ts'

const verbs = ['get', 'list', 'watch', 'create']
/** `resource` as discovery serves it at `apiVersion` (`v1` for core). */
const served = (
  apiVersion: string,
  resource: string,
  namespaced: boolean,
  preferred = true
): ServedResource => ({
  ...parseApiVersion(apiVersion),
  resource,
  kind: resource,
  namespaced,
  verbs,
  preferred,
})
const discovery = indexDiscovery([
  served('v1', 'configmaps', true),
  served('v1', 'events', true),
  served('v1', 'namespaces', false),
  served('autoscaling/v2', 'horizontalpodautoscalers', true),
  served('autoscaling/v1', 'horizontalpodautoscalers', true, false),
  served('apiextensions.k8s.io/v1', 'customresourcedefinitions', false),
  served('example.com/v1', 'gadgets', true),
])

const summary = (sets: Parameters<typeof upsyncTargets>[0]) =>
  upsyncTargets(sets, discovery).map((t) => ({
    r: `${t.served.group}/${t.served.version}/${t.served.resource}`,
    all: t.allNamespaces,
    ns: [...t.namespaces].sort(),
  }))

describe('upsyncTargets', () => {
  it('resolves resources at the preferred version, wildcard resources skip not-for-edge kinds', () => {
    expect(summary([{ apiGroup: '', resources: ['*'], namespaces: ['a'], names: ['*'] }])).toEqual([
      { r: '/v1/configmaps', all: false, ns: ['a'] },
      { r: '/v1/namespaces', all: true, ns: [] },
    ])
    expect(
      summary([
        {
          apiGroup: 'autoscaling',
          resources: ['horizontalpodautoscalers'],
          namespaces: ['*'],
          names: ['x'],
        },
      ])
    ).toEqual([{ r: 'autoscaling/v2/horizontalpodautoscalers', all: true, ns: [] }])
  })
  it('selects nothing for empty lists, CRDs or a namespaced resource without namespaces', () => {
    expect(summary([{ apiGroup: '', resources: [], namespaces: ['a'], names: ['*'] }])).toEqual([])
    expect(summary([{ apiGroup: 'apiextensions.k8s.io', resources: ['*'], names: ['*'] }])).toEqual(
      []
    )
    expect(summary([{ apiGroup: 'example.com', resources: ['gadgets'], names: ['*'] }])).toEqual([])
  })
  it('unites the namespaces of several sets', () => {
    expect(
      summary([
        { apiGroup: 'example.com', resources: ['gadgets'], namespaces: ['b'], names: ['*'] },
        { apiGroup: 'example.com', resources: ['*'], namespaces: ['a'], names: ['g'] },
      ])
    ).toEqual([{ r: 'example.com/v1/gadgets', all: false, ns: ['a', 'b'] }])
  })
})

describe('upsyncSetsOf (desired state)', () => {
  const set = { apiGroup: '', resources: ['configmaps'], names: ['*'] }
  const copy = (name: string): DesiredCopy => ({
    mailbox: 'm',
    version: 1,
    entries: [
      {
        group: 'edge.kcp.io',
        version: 'v1alpha1',
        resource: 'syncerconfigs',
        namespace: '',
        name,
        hash: 'h1',
        generation: 1,
        rv: 1,
      },
    ],
    bodies: { h1: { spec: { upsync: [set, 7] } } },
  })
  it('takes the valid sets of the SyncerConfig the-one, none without it', () => {
    expect(upsyncSetsOf(copy('the-one'))).toEqual([set])
    expect(upsyncSetsOf(copy('another'))).toEqual([])
  })
})
