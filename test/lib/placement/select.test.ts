import { describe, expect, it } from 'vitest'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { selectForPlacement } from '../../../lib/placement/select.ts'
import type { SourceObject, SpaceSnapshot } from '../../../lib/placement/types.ts'

const GONE = '2026-01-01T00:00:00Z'

type Opts = { labels?: Record<string, string>; deleting?: boolean; extra?: Partial<KubeObject> }

function src(
  gvr: string,
  kind: string,
  nsName: string,
  { labels, deleting, extra }: Opts = {}
): SourceObject {
  const [group = '', version = '', resource = ''] = gvr.split('/')
  const [namespace, name] = nsName.includes('/') ? nsName.split('/') : [undefined, nsName]
  const object: KubeObject = {
    apiVersion: group ? `${group}/${version}` : version,
    kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(labels ? { labels } : {}),
      ...(deleting ? { deletionTimestamp: GONE } : {}),
      annotations: { 'kcp.io/cluster': 'wmw1' },
    },
    ...extra,
  }
  return { group, version, resource, namespaced: namespace !== undefined, object }
}

const ns = (name: string, labels: Record<string, string>, deleting = false) =>
  src('/v1/namespaces', 'Namespace', name, { labels, deleting })
const crd = (name: string, group: string, labels?: Record<string, string>) =>
  src('apiextensions.k8s.io/v1/customresourcedefinitions', 'CustomResourceDefinition', name, {
    labels,
    extra: { spec: { group } },
  })

// Single-team: every resource granted (grant-rule.test.ts has the granted cases).
const SNAPSHOT: SpaceSnapshot = {
  spaceId: 'wmw1',
  grant: { allowsResource: () => true },
  objects: [
    ns('shop', { app: 'shop', tier: 'front' }),
    ns('batch', { app: 'batch' }),
    ns('gone', { app: 'shop' }, true),
    ns('default', {}),
    ns('kube-system', { 'kubernetes.io/metadata.name': 'kube-system' }),
    src('apps/v1/deployments', 'Deployment', 'shop/web'),
    src('/v1/configmaps', 'ConfigMap', 'shop/settings'),
    src('/v1/configmaps', 'ConfigMap', 'shop/kube-root-ca.crt'),
    src('/v1/configmaps', 'ConfigMap', 'shop/leaving', { deleting: true }),
    src('/v1/secrets', 'Secret', 'shop/creds', { extra: { type: 'Opaque' } }),
    src('/v1/secrets', 'Secret', 'shop/builder-token', {
      extra: { type: 'kubernetes.io/service-account-token' },
    }),
    src('/v1/serviceaccounts', 'ServiceAccount', 'shop/default'),
    src('/v1/serviceaccounts', 'ServiceAccount', 'shop/builder'),
    src('/v1/events', 'Event', 'shop/web.1'),
    src('events.k8s.io/v1/events', 'Event', 'shop/web.2'),
    src('edge.kcp.io/v1alpha1/customizers', 'Customizer', 'shop/tweak'),
    src('batch/v1/jobs', 'Job', 'batch/nightly'),
    src('/v1/configmaps', 'ConfigMap', 'gone/leftover'),
    src('/v1/configmaps', 'ConfigMap', 'kube-system/edge-tweaks'),
    crd('widgets.example.com', 'example.com', { team: 'a' }),
    crd('gadgets.apps', 'apps'),
    src('rbac.authorization.k8s.io/v1/clusterroles', 'ClusterRole', 'reader', {
      labels: { team: 'a' },
    }),
    src('rbac.authorization.k8s.io/v1/clusterroles', 'ClusterRole', 'writer', {
      labels: { team: 'b' },
    }),
    src('rbac.authorization.k8s.io/v1/clusterroles', 'ClusterRole', 'old', {
      labels: { team: 'a' },
      deleting: true,
    }),
    src('apis.kcp.io/v1alpha1/apibindings', 'APIBinding', 'bind-kubernetes'),
    src('apis.kcp.io/v1alpha1/apiexports', 'APIExport', 'my-export'),
    src('apiregistration.k8s.io/v1/apiservices', 'APIService', 'v1.example.com'),
    src('edge.kcp.io/v1alpha1/edgeplacements', 'EdgePlacement', 'ep1'),
    src('/v1/nodes', 'Node', 'node-1'),
  ],
}

const key = (group: string, resource: string, namespace: string | undefined, name: string) =>
  `${group}/${resource}/${namespace ?? ''}/${name}`
const objKeys = (list: SourceObject[]) =>
  list.map((o) =>
    key(o.group, o.resource, o.object.metadata.namespace, o.object.metadata.name ?? '')
  )

const ep = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name: 'ep' },
  spec: spec as KubeObject['spec'],
})
const NOTHING = { namespaceSelector: { matchLabels: { none: 'none' } } }
const set = (
  apiGroup: string,
  resources: string[],
  resourceNames: string[],
  labelSelectors?: unknown[]
) => ({
  apiGroup,
  resources,
  resourceNames,
  ...(labelSelectors ? { labelSelectors } : {}),
})

const SHOP_OBJECTS = [
  '/configmaps/shop/settings',
  '/secrets/shop/creds',
  '/serviceaccounts/shop/builder',
  'apps/deployments/shop/web',
]
const SHOP_SKIPPED: [string, string][] = [
  ['/configmaps/shop/kube-root-ca.crt', 'SystemInfrastructure'],
  ['/events/shop/web.1', 'NotForEdge'],
  ['/secrets/shop/builder-token', 'SystemInfrastructure'],
  ['/serviceaccounts/shop/default', 'SystemInfrastructure'],
  ['edge.kcp.io/customizers/shop/tweak', 'NotForEdge'],
  ['events.k8s.io/events/shop/web.2', 'NotForEdge'],
]
const ALL_NAMESPACES = ['batch', 'default', 'kube-system', 'shop']
const ALL_OBJECTS = [
  '/configmaps/kube-system/edge-tweaks',
  ...SHOP_OBJECTS.slice(0, 3),
  'apps/deployments/shop/web',
  'batch/jobs/batch/nightly',
]

type Want = {
  namespaces: string[]
  objects: string[]
  skipped?: [string, string][]
  problems?: number
}

const cases: [label: string, spec: Record<string, unknown>, want: Want][] = [
  [
    'absent namespaceSelector matches every live namespace',
    {},
    { namespaces: ALL_NAMESPACES, objects: ALL_OBJECTS, skipped: SHOP_SKIPPED },
  ],
  [
    'empty namespaceSelector matches every live namespace',
    { namespaceSelector: {} },
    { namespaces: ALL_NAMESPACES, objects: ALL_OBJECTS, skipped: SHOP_SKIPPED },
  ],
  [
    'null namespaceSelector matches every live namespace',
    { namespaceSelector: null },
    { namespaces: ALL_NAMESPACES, objects: ALL_OBJECTS, skipped: SHOP_SKIPPED },
  ],
  [
    'matchLabels; the terminating namespace and the deleting object are out',
    { namespaceSelector: { matchLabels: { app: 'shop' } } },
    { namespaces: ['shop'], objects: SHOP_OBJECTS, skipped: SHOP_SKIPPED },
  ],
  [
    'matchExpressions In',
    {
      namespaceSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['batch'] }] },
    },
    { namespaces: ['batch'], objects: ['batch/jobs/batch/nightly'] },
  ],
  [
    'matchExpressions NotIn also takes unlabelled namespaces',
    {
      namespaceSelector: {
        matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['shop'] }],
      },
    },
    {
      namespaces: ['batch', 'default', 'kube-system'],
      objects: ['/configmaps/kube-system/edge-tweaks', 'batch/jobs/batch/nightly'],
    },
  ],
  [
    'objects in kube-system are selected',
    { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } },
    { namespaces: ['kube-system'], objects: ['/configmaps/kube-system/edge-tweaks'] },
  ],
  ['no namespace matched: nothing', NOTHING, { namespaces: [], objects: [] }],
  [
    'group AND resource AND name',
    {
      ...NOTHING,
      nonNamespacedObjects: [set('rbac.authorization.k8s.io', ['clusterroles'], ['reader'])],
    },
    { namespaces: [], objects: ['rbac.authorization.k8s.io/clusterroles//reader'] },
  ],
  [
    'labels instead of names; a deleting match is out',
    {
      ...NOTHING,
      nonNamespacedObjects: [
        set('rbac.authorization.k8s.io', ['clusterroles'], [], [{ matchLabels: { team: 'a' } }]),
      ],
    },
    { namespaces: [], objects: ['rbac.authorization.k8s.io/clusterroles//reader'] },
  ],
  [
    'name OR labels',
    {
      ...NOTHING,
      nonNamespacedObjects: [
        set(
          'rbac.authorization.k8s.io',
          ['clusterroles'],
          ['writer'],
          [{ matchLabels: { team: 'a' } }]
        ),
      ],
    },
    {
      namespaces: [],
      objects: [
        'rbac.authorization.k8s.io/clusterroles//reader',
        'rbac.authorization.k8s.io/clusterroles//writer',
      ],
    },
  ],
  [
    'group must be equal',
    { ...NOTHING, nonNamespacedObjects: [set('', ['clusterroles'], ['*'])] },
    { namespaces: [], objects: [] },
  ],
  [
    'resource must be listed',
    { ...NOTHING, nonNamespacedObjects: [set('rbac.authorization.k8s.io', ['roles'], ['*'])] },
    { namespaces: [], objects: [] },
  ],
  [
    '"*" resources and names; a CRD of a built-in group is skipped',
    { ...NOTHING, nonNamespacedObjects: [set('apiextensions.k8s.io', ['*'], ['*'])] },
    {
      namespaces: [],
      objects: ['apiextensions.k8s.io/customresourcedefinitions//widgets.example.com'],
      skipped: [
        ['apiextensions.k8s.io/customresourcedefinitions//gadgets.apps', 'BuiltinDefinition'],
      ],
    },
  ],
  [
    'empty resources match nothing',
    { ...NOTHING, nonNamespacedObjects: [set('rbac.authorization.k8s.io', [], ['*'])] },
    { namespaces: [], objects: [] },
  ],
  [
    'empty names and no selectors match nothing',
    { ...NOTHING, nonNamespacedObjects: [set('rbac.authorization.k8s.io', ['*'], [])] },
    { namespaces: [], objects: [] },
  ],
  [
    'an empty label selector matches every object of the resource',
    {
      ...NOTHING,
      nonNamespacedObjects: [set('rbac.authorization.k8s.io', ['clusterroles'], [], [{}])],
    },
    {
      namespaces: [],
      objects: [
        'rbac.authorization.k8s.io/clusterroles//reader',
        'rbac.authorization.k8s.io/clusterroles//writer',
      ],
    },
  ],
  [
    'nonNamespacedObjects never reach namespaced objects',
    { ...NOTHING, nonNamespacedObjects: [set('', ['configmaps'], ['*'])] },
    { namespaces: [], objects: [] },
  ],
  [
    'an unsupported kind is skipped with its reason',
    { ...NOTHING, nonNamespacedObjects: [set('apiregistration.k8s.io', ['apiservices'], ['*'])] },
    {
      namespaces: [],
      objects: [],
      skipped: [['apiregistration.k8s.io/apiservices//v1.example.com', 'Unsupported']],
    },
  ],
  [
    'an APIBinding is selected, an APIExport is not for the edge',
    { ...NOTHING, nonNamespacedObjects: [set('apis.kcp.io', ['*'], ['*'])] },
    {
      namespaces: [],
      objects: ['apis.kcp.io/apibindings//bind-kubernetes'],
      skipped: [['apis.kcp.io/apiexports//my-export', 'NotForEdge']],
    },
  ],
  [
    'edge kinds and nodes are not for the edge',
    {
      ...NOTHING,
      nonNamespacedObjects: [set('edge.kcp.io', ['*'], ['*']), set('', ['nodes'], ['*'])],
    },
    {
      namespaces: [],
      objects: [],
      skipped: [
        ['/nodes//node-1', 'NotForEdge'],
        ['edge.kcp.io/edgeplacements//ep1', 'NotForEdge'],
      ],
    },
  ],
  [
    'Namespace objects: details travel, the built-in one is skipped, the terminating one is gone',
    {
      ...NOTHING,
      nonNamespacedObjects: [set('', ['namespaces'], ['shop', 'kube-system', 'gone'])],
    },
    {
      namespaces: [],
      objects: ['/namespaces//shop'],
      skipped: [['/namespaces//kube-system', 'BuiltinDefinition']],
    },
  ],
  [
    'kube-system contents selected while its Namespace object is skipped',
    {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      nonNamespacedObjects: [set('', ['namespaces'], ['*'])],
    },
    {
      namespaces: ['kube-system'],
      objects: ['/configmaps/kube-system/edge-tweaks', '/namespaces//batch', '/namespaces//shop'],
      skipped: [
        ['/namespaces//default', 'BuiltinDefinition'],
        ['/namespaces//kube-system', 'BuiltinDefinition'],
      ],
    },
  ],
  [
    'an object matched by several sets is selected once',
    {
      ...NOTHING,
      nonNamespacedObjects: [
        set('rbac.authorization.k8s.io', ['clusterroles'], ['reader']),
        set('rbac.authorization.k8s.io', ['*'], ['*']),
      ],
    },
    {
      namespaces: [],
      objects: [
        'rbac.authorization.k8s.io/clusterroles//reader',
        'rbac.authorization.k8s.io/clusterroles//writer',
      ],
    },
  ],
  [
    'an invalid namespaceSelector matches nothing and is a problem',
    { namespaceSelector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } },
    { namespaces: [], objects: [], problems: 1 },
  ],
  [
    'an invalid label selector matches nothing, names still do',
    {
      ...NOTHING,
      nonNamespacedObjects: [
        set(
          'rbac.authorization.k8s.io',
          ['clusterroles'],
          ['writer'],
          [{ matchExpressions: [{ key: 'team', operator: 'In' }] }]
        ),
      ],
    },
    { namespaces: [], objects: ['rbac.authorization.k8s.io/clusterroles//writer'], problems: 1 },
  ],
]

describe('selectForPlacement', () => {
  const builtins = builtinsFrom()
  it.each(cases)('%s', (_label, spec, want) => {
    const got = selectForPlacement(ep(spec), SNAPSHOT, builtins)
    expect(got.namespaces).toEqual(want.namespaces)
    expect(objKeys(got.objects)).toEqual(want.objects)
    expect(
      got.skipped.map((s) => [key(s.group, s.resource, s.namespace, s.name), s.reason])
    ).toEqual(want.skipped ?? [])
    expect(got.problems).toHaveLength(want.problems ?? 0)
  })

  it('names the kind and object in the Unsupported message', () => {
    const got = selectForPlacement(
      ep({ ...NOTHING, nonNamespacedObjects: [set('apiregistration.k8s.io', ['*'], ['*'])] }),
      SNAPSHOT,
      builtins
    )
    expect(got.skipped[0]?.message).toMatch(/APIService "v1\.example\.com"/)
  })

  it('names the field of an invalid selector in the problem', () => {
    const got = selectForPlacement(
      ep({ namespaceSelector: { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } }),
      SNAPSHOT,
      builtins
    )
    expect(got.problems[0]).toMatch(/^spec\.namespaceSelector /)
    expect(got.problems[0]).toContain('operator')
  })

  it('selects a namespace by kubernetes.io/metadata.name even when it was stored without it', () => {
    const got = selectForPlacement(
      ep({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'batch' } } }),
      SNAPSHOT,
      builtins
    )
    expect(objKeys(got.objects)).toEqual(['batch/jobs/batch/nightly'])
    // A label written by hand that disagrees with the name is not what kube keeps.
    const liar = { ...SNAPSHOT, objects: [ns('odd', { 'kubernetes.io/metadata.name': 'batch' })] }
    const none = selectForPlacement(
      ep({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'batch' } } }),
      liar,
      builtins
    )
    expect(none.objects).toEqual([])
  })

  it('uses the configured built-in namespaces', () => {
    const got = selectForPlacement(
      ep({ ...NOTHING, nonNamespacedObjects: [set('', ['namespaces'], ['kube-system', 'shop'])] }),
      SNAPSHOT,
      builtinsFrom(['shop'])
    )
    expect(objKeys(got.objects)).toEqual(['/namespaces//kube-system'])
    expect(got.skipped.map((s) => s.name)).toEqual(['shop'])
  })

  it('returns the snapshot objects themselves and is deterministic', () => {
    const reversed = { ...SNAPSHOT, objects: [...SNAPSHOT.objects].reverse() }
    const a = selectForPlacement(ep({}), SNAPSHOT, builtins)
    const b = selectForPlacement(ep({}), reversed, builtins)
    expect(b).toEqual(a)
    expect(SNAPSHOT.objects).toContain(a.objects[0])
  })
})
