import { describe, expect, it } from 'vitest'
import { SyncerConfigSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import { PROJECTED_LABEL } from '../../../lib/placement/annotations.ts'
import {
  buildSyncerConfig,
  isSyncerConfigEntry,
  type ResourceRef,
  SYNCER_CONFIG_NAME,
  type SyncerConfigInput,
  syncerConfigEntry,
} from '../../../lib/placement/syncer-config.ts'

const ref = (group: string, version: string, resource: string): ResourceRef => ({
  group,
  version,
  resource,
})
const EMPTY: SyncerConfigInput = {
  namespaces: [],
  namespacedResources: [],
  clusterObjects: [],
  upsync: [],
}

const cases: [label: string, input: Partial<SyncerConfigInput>, spec: unknown][] = [
  ['empty input', {}, { namespaceScope: {} }],
  [
    'resources without namespaces select nothing',
    { namespacedResources: [ref('', 'v1', 'configmaps')] },
    { namespaceScope: {} },
  ],
  [
    'namespaces united, sorted and deduped; resources sorted by group then resource',
    {
      namespaces: ['specialstuff', 'commonstuff', 'specialstuff'],
      namespacedResources: [
        ref('apps', 'v1', 'deployments'),
        ref('', 'v1', 'services'),
        ref('', 'v1', 'configmaps'),
        ref('apps', 'v1', 'deployments'),
        ref('networking.k8s.io', 'v1', 'ingresses'),
      ],
    },
    {
      namespaceScope: {
        namespaces: ['commonstuff', 'specialstuff'],
        resources: [
          { group: '', resource: 'configmaps', apiVersion: 'v1' },
          { group: '', resource: 'services', apiVersion: 'v1' },
          { group: 'apps', resource: 'deployments', apiVersion: 'v1' },
          { group: 'networking.k8s.io', resource: 'ingresses', apiVersion: 'v1' },
        ],
      },
    },
  ],
  [
    'the version given per resource; the highest when several',
    {
      namespaces: ['a'],
      namespacedResources: [
        ref('autoscaling', 'v1', 'horizontalpodautoscalers'),
        ref('example.com', 'v1beta1', 'widgets'),
        ref('autoscaling', 'v2', 'horizontalpodautoscalers'),
        ref('example.com', 'v1alpha3', 'widgets'),
        ref('example.com', 'v2beta1', 'gadgets'),
      ],
    },
    {
      namespaceScope: {
        namespaces: ['a'],
        resources: [
          { group: 'autoscaling', resource: 'horizontalpodautoscalers', apiVersion: 'v2' },
          { group: 'example.com', resource: 'gadgets', apiVersion: 'v2beta1' },
          { group: 'example.com', resource: 'widgets', apiVersion: 'v1beta1' },
        ],
      },
    },
  ],
  [
    'namespaces without resources',
    { namespaces: ['a'] },
    { namespaceScope: { namespaces: ['a'] } },
  ],
  [
    'cluster objects by resource, names united and sorted, empty entries left out',
    {
      clusterObjects: [
        {
          ref: ref('rbac.authorization.k8s.io', 'v1', 'clusterroles'),
          names: ['writer', 'reader'],
        },
        { ref: ref('', 'v1', 'namespaces'), names: ['shop'] },
        { ref: ref('rbac.authorization.k8s.io', 'v1', 'clusterroles'), names: ['reader', 'admin'] },
        { ref: ref('apiextensions.k8s.io', 'v1', 'customresourcedefinitions'), names: [] },
        { ref: ref('example.com', 'v1alpha1', 'things'), names: ['t'] },
        { ref: ref('example.com', 'v1', 'things'), names: ['u'] },
      ],
    },
    {
      namespaceScope: {},
      clusterScope: [
        { group: '', resource: 'namespaces', apiVersion: 'v1', objects: ['shop'] },
        { group: 'example.com', resource: 'things', apiVersion: 'v1', objects: ['t', 'u'] },
        {
          group: 'rbac.authorization.k8s.io',
          resource: 'clusterroles',
          apiVersion: 'v1',
          objects: ['admin', 'reader', 'writer'],
        },
      ],
    },
  ],
  [
    'upsync sets normalized, deduplicated and sorted',
    {
      upsync: [
        {
          apiGroup: 'group1.test',
          resources: ['sprockets', 'flanges'],
          namespaces: ['orbital'],
          names: ['george', 'cosmo'],
        },
        { apiGroup: 'group3.test', resources: ['widgets'], names: ['*'] },
        {
          apiGroup: 'group1.test',
          resources: ['flanges', 'sprockets', 'flanges'],
          namespaces: ['orbital'],
          names: ['cosmo', 'george'],
        },
        { apiGroup: 'group2.test', resources: ['cogs'], namespaces: [], names: ['William'] },
        { resources: ['configmaps'], names: ['x'] },
      ],
    },
    {
      namespaceScope: {},
      upsync: [
        { apiGroup: '', resources: ['configmaps'], names: ['x'] },
        {
          apiGroup: 'group1.test',
          resources: ['flanges', 'sprockets'],
          namespaces: ['orbital'],
          names: ['cosmo', 'george'],
        },
        { apiGroup: 'group2.test', resources: ['cogs'], names: ['William'] },
        { apiGroup: 'group3.test', resources: ['widgets'], names: ['*'] },
      ],
    },
  ],
]

describe('buildSyncerConfig', () => {
  it.each(cases)('%s', (_label, input, spec) => {
    const got = buildSyncerConfig({ ...EMPTY, ...input })
    expect(got).toEqual({
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncerConfig',
      metadata: { name: SYNCER_CONFIG_NAME, labels: { [PROJECTED_LABEL]: 'yes' } },
      spec,
    })
    expect(SyncerConfigSchema.safeParse(got).success).toBe(true)
  })

  it('is named the-one', () => {
    expect(SYNCER_CONFIG_NAME).toBe('the-one')
  })

  it('gives the same JSON whatever the input order', () => {
    const input: SyncerConfigInput = {
      namespaces: ['b', 'a'],
      namespacedResources: [ref('apps', 'v1', 'deployments'), ref('', 'v1', 'secrets')],
      clusterObjects: [
        { ref: ref('', 'v1', 'namespaces'), names: ['b', 'a'] },
        { ref: ref('storage.k8s.io', 'v1', 'storageclasses'), names: ['fast'] },
      ],
      upsync: [
        { apiGroup: 'g', resources: ['r'], names: ['n'] },
        { apiGroup: 'f', resources: ['r'], names: ['n'] },
      ],
    }
    const reversed: SyncerConfigInput = {
      namespaces: [...input.namespaces].reverse(),
      namespacedResources: [...input.namespacedResources].reverse(),
      clusterObjects: input.clusterObjects
        .map((c) => ({ ref: c.ref, names: [...c.names].reverse() }))
        .reverse(),
      upsync: [...input.upsync].reverse(),
    }
    expect(JSON.stringify(buildSyncerConfig(reversed))).toBe(
      JSON.stringify(buildSyncerConfig(input))
    )
  })

  it('does not modify its input', () => {
    const input: SyncerConfigInput = {
      namespaces: ['b', 'a'],
      namespacedResources: [ref('x', 'v1alpha1', 'r'), ref('x', 'v1', 'r')],
      clusterObjects: [{ ref: ref('', 'v1', 'namespaces'), names: ['b', 'a'] }],
      upsync: [{ apiGroup: 'g', resources: ['z', 'a'], names: ['n'] }],
    }
    const before = structuredClone(input)
    buildSyncerConfig(input)
    expect(input).toEqual(before)
  })
})

describe('syncerConfigEntry', () => {
  const entry = (group: string, resource: string, name: string) => ({
    group,
    resource,
    name,
    hash: `${group}/${resource}/${name}`,
  })

  it('finds the-one among a mailbox entries, by group, resource and name', () => {
    const mine = entry('edge.kcp.io', 'syncerconfigs', 'the-one')
    const others = [
      entry('edge.kcp.io', 'syncerconfigs', 'another'),
      entry('', 'configmaps', 'the-one'),
      entry('other.io', 'syncerconfigs', 'the-one'),
    ]
    expect(SYNCER_CONFIG_NAME).toBe('the-one')
    expect(syncerConfigEntry([...others, mine])).toBe(mine)
    expect(syncerConfigEntry(others)).toBeUndefined()
    expect(syncerConfigEntry([])).toBeUndefined()
    expect(others.some(isSyncerConfigEntry)).toBe(false)
  })
})
