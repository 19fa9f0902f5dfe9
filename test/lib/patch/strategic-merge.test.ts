/**
 * Tests for strategic merge patch: the shapes kubectl sends (client-side apply with
 * `$setElementOrder`, set image, rollout restart, `$retainKeys`, deletions), merge keys of the
 * built-in kinds wherever a pod spec is embedded, list ordering, the directives, 415 for custom
 * resources and 400 for malformed patches.
 */
import { describe, expect, it } from 'vitest'
import type { GroupVersionKind, JsonValue } from '../../../lib/kube/types.ts'
import {
  applyStrategicMergePatch,
  supportsStrategicMerge,
} from '../../../lib/patch/strategic-merge.ts'
import { failure } from '../../helpers/api-error.ts'

const DEPLOYMENT: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'Deployment' }
const POD: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' }

/** A deployment whose pod spec is `spec`. */
const deployment = (spec: JsonValue, extra: Record<string, JsonValue> = {}): JsonValue => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', ...extra },
  spec: { replicas: 1, template: { metadata: { labels: { app: 'web' } }, spec } },
})

type Case = {
  name: string
  gvk?: GroupVersionKind
  live: JsonValue
  patch: JsonValue
  want: JsonValue
}

const kubectlCases: Case[] = [
  {
    name: 'client-side apply of a changed image',
    live: deployment(
      {
        containers: [
          { name: 'app', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }] },
        ],
      },
      {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"old":1}',
          other: 'x',
        },
      }
    ),
    patch: {
      metadata: {
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":1}' },
      },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }],
            containers: [{ image: 'nginx:1.26', name: 'app' }],
          },
        },
      },
    },
    want: deployment(
      {
        containers: [
          { name: 'app', image: 'nginx:1.26', ports: [{ containerPort: 80, protocol: 'TCP' }] },
        ],
      },
      {
        annotations: {
          'kubectl.kubernetes.io/last-applied-configuration': '{"new":1}',
          other: 'x',
        },
      }
    ),
  },
  {
    name: 'client-side apply removing a container and adding one',
    live: deployment({
      containers: [
        { name: 'app', image: 'a' },
        { name: 'old', image: 'o' },
      ],
    }),
    patch: {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'new' }, { name: 'app' }],
            containers: [
              { name: 'new', image: 'n' },
              { $patch: 'delete', name: 'old' },
            ],
          },
        },
      },
    },
    want: deployment({
      containers: [
        { name: 'new', image: 'n' },
        { name: 'app', image: 'a' },
      ],
    }),
  },
  {
    name: 'client-side apply with nested $setElementOrder for env and ports',
    live: deployment({
      containers: [
        {
          name: 'app',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          ports: [{ containerPort: 80 }, { containerPort: 443 }],
        },
      ],
    }),
    patch: {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }],
            containers: [
              {
                '$setElementOrder/env': [{ name: 'B' }, { name: 'A' }],
                '$setElementOrder/ports': [{ containerPort: 443 }],
                env: [{ name: 'B', value: '3' }],
                name: 'app',
                ports: [{ $patch: 'delete', containerPort: 80 }],
              },
            ],
          },
        },
      },
    },
    want: deployment({
      containers: [
        {
          name: 'app',
          env: [
            { name: 'B', value: '3' },
            { name: 'A', value: '1' },
          ],
          ports: [{ containerPort: 443 }],
        },
      ],
    }),
  },
  {
    name: 'client-side apply removing a map field and a label',
    live: deployment({ containers: [{ name: 'app', resources: { limits: { cpu: '1' } } }] }),
    patch: {
      spec: {
        template: {
          metadata: { labels: { app: null } },
          spec: {
            '$setElementOrder/containers': [{ name: 'app' }],
            containers: [{ name: 'app', resources: null }],
          },
        },
      },
    },
    want: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        template: { metadata: { labels: {} }, spec: { containers: [{ name: 'app' }] } },
      },
    },
  },
  {
    name: 'kubectl set image',
    live: deployment({
      containers: [
        { name: 'app', image: 'a:1' },
        { name: 'side', image: 's:1' },
      ],
    }),
    patch: { spec: { template: { spec: { containers: [{ name: 'side', image: 's:2' }] } } } },
    want: deployment({
      containers: [
        { name: 'app', image: 'a:1' },
        { name: 'side', image: 's:2' },
      ],
    }),
  },
  {
    name: 'kubectl rollout restart',
    live: deployment({ containers: [{ name: 'app', image: 'a' }] }),
    patch: {
      spec: {
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': 't' } } },
      },
    },
    want: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        template: {
          metadata: {
            labels: { app: 'web' },
            annotations: { 'kubectl.kubernetes.io/restartedAt': 't' },
          },
          spec: { containers: [{ name: 'app', image: 'a' }] },
        },
      },
    },
  },
  {
    name: '$retainKeys on the deployment strategy',
    live: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
    want: { spec: { strategy: { type: 'Recreate' } } },
  },
  {
    name: '$retainKeys on a volume switching source',
    live: deployment({
      volumes: [
        { name: 'v', emptyDir: {} },
        { name: 'w', emptyDir: {} },
      ],
    }),
    patch: {
      spec: {
        template: {
          spec: {
            volumes: [{ $retainKeys: ['configMap', 'name'], name: 'v', configMap: { name: 'cm' } }],
          },
        },
      },
    },
    want: deployment({
      volumes: [
        { name: 'v', configMap: { name: 'cm' } },
        { name: 'w', emptyDir: {} },
      ],
    }),
  },
]

const mergeKeyCases: Case[] = [
  {
    name: 'env merges by name, $patch delete removes',
    gvk: POD,
    live: {
      spec: {
        containers: [
          {
            name: 'c',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
        ],
      },
    },
    patch: {
      spec: {
        containers: [
          {
            name: 'c',
            env: [
              { name: 'B', value: '3' },
              { name: 'A', $patch: 'delete' },
            ],
          },
        ],
      },
    },
    want: { spec: { containers: [{ name: 'c', env: [{ name: 'B', value: '3' }] }] } },
  },
  {
    name: 'container ports merge by containerPort',
    gvk: POD,
    live: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http' }] }] } },
    patch: {
      spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] }] },
    },
    want: {
      spec: {
        containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http', hostPort: 8080 }] }],
      },
    },
  },
  {
    name: 'volumeMounts merge by mountPath, init containers by name',
    gvk: POD,
    live: {
      spec: { initContainers: [{ name: 'i', volumeMounts: [{ mountPath: '/a', name: 'x' }] }] },
    },
    patch: {
      spec: {
        initContainers: [{ name: 'i', volumeMounts: [{ mountPath: '/a', readOnly: true }] }],
      },
    },
    want: {
      spec: {
        initContainers: [
          { name: 'i', volumeMounts: [{ mountPath: '/a', name: 'x', readOnly: true }] },
        ],
      },
    },
  },
  {
    name: 'tolerations and envFrom have no merge key and are replaced',
    gvk: POD,
    live: {
      spec: {
        tolerations: [{ key: 'a' }],
        containers: [{ name: 'c', envFrom: [{ prefix: 'A' }] }],
      },
    },
    patch: {
      spec: {
        tolerations: [{ key: 'b' }],
        containers: [{ name: 'c', envFrom: [{ prefix: 'B' }] }],
      },
    },
    want: {
      spec: {
        tolerations: [{ key: 'b' }],
        containers: [{ name: 'c', envFrom: [{ prefix: 'B' }] }],
      },
    },
  },
  {
    name: 'imagePullSecrets, hostAliases and topologySpreadConstraints merge',
    gvk: POD,
    live: {
      spec: {
        imagePullSecrets: [{ name: 'a' }],
        hostAliases: [{ ip: '1.1.1.1', hostnames: ['a'] }],
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 1 }],
      },
    },
    patch: {
      spec: {
        imagePullSecrets: [{ name: 'b' }],
        hostAliases: [{ ip: '1.1.1.1', hostnames: ['b'] }],
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 2 }],
      },
    },
    want: {
      spec: {
        imagePullSecrets: [{ name: 'b' }, { name: 'a' }],
        hostAliases: [{ ip: '1.1.1.1', hostnames: ['b'] }],
        topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 2 }],
      },
    },
  },
  {
    name: 'Service ports merge by port',
    gvk: { group: '', version: 'v1', kind: 'Service' },
    live: { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } },
    patch: { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
    want: { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
  },
  {
    name: 'status conditions merge by type',
    live: {
      status: {
        conditions: [
          { type: 'Available', status: 'False' },
          { type: 'Progressing', status: 'True' },
        ],
      },
    },
    patch: { status: { conditions: [{ type: 'Available', status: 'True' }] } },
    want: {
      status: {
        conditions: [
          { type: 'Available', status: 'True' },
          { type: 'Progressing', status: 'True' },
        ],
      },
    },
  },
  {
    name: 'ownerReferences merge by uid',
    gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    live: { metadata: { ownerReferences: [{ uid: '1', name: 'a' }] } },
    patch: {
      metadata: {
        ownerReferences: [
          { uid: '1', controller: true },
          { uid: '2', name: 'b' },
        ],
      },
    },
    want: {
      metadata: {
        ownerReferences: [
          { uid: '1', name: 'a', controller: true },
          { uid: '2', name: 'b' },
        ],
      },
    },
  },
  {
    name: 'finalizers are a set; $deleteFromPrimitiveList removes values',
    gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    live: { metadata: { finalizers: ['a', 'b', 'c'] } },
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], finalizers: ['a', 'd'] } },
    want: { metadata: { finalizers: ['a', 'd', 'c'] } },
  },
  {
    name: 'ConfigMap data merges as a map, null deletes a key',
    gvk: { group: '', version: 'v1', kind: 'ConfigMap' },
    live: { data: { a: '1', b: '2' } },
    patch: { data: { a: null, c: '3' } },
    want: { data: { b: '2', c: '3' } },
  },
]

const embeddedPodSpecs: { kind: GroupVersionKind; wrap: (spec: JsonValue) => JsonValue }[] = [
  {
    kind: { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
    wrap: (s) => ({ spec: { template: { spec: s } } }),
  },
  {
    kind: { group: 'apps', version: 'v1', kind: 'StatefulSet' },
    wrap: (s) => ({ spec: { template: { spec: s } } }),
  },
  {
    kind: { group: 'apps', version: 'v1', kind: 'DaemonSet' },
    wrap: (s) => ({ spec: { template: { spec: s } } }),
  },
  {
    kind: { group: 'batch', version: 'v1', kind: 'Job' },
    wrap: (s) => ({ spec: { template: { spec: s } } }),
  },
  {
    kind: { group: '', version: 'v1', kind: 'ReplicationController' },
    wrap: (s) => ({ spec: { template: { spec: s } } }),
  },
  {
    kind: { group: 'batch', version: 'v1', kind: 'CronJob' },
    wrap: (s) => ({ spec: { jobTemplate: { spec: { template: { spec: s } } } } }),
  },
  {
    kind: { group: '', version: 'v1', kind: 'PodTemplate' },
    wrap: (s) => ({ template: { spec: s } }),
  },
  { kind: POD, wrap: (s) => ({ spec: s }) },
]

describe('applyStrategicMergePatch', () => {
  it.each(kubectlCases)('kubectl: $name', ({ gvk, live, patch, want }) => {
    expect(applyStrategicMergePatch(live, patch, gvk ?? DEPLOYMENT)).toEqual(want)
  })

  it.each(mergeKeyCases)('merge keys: $name', ({ gvk, live, patch, want }) => {
    expect(applyStrategicMergePatch(live, patch, gvk ?? DEPLOYMENT)).toEqual(want)
  })

  it.each(embeddedPodSpecs)(
    'merges containers by name in the pod spec of $kind.kind',
    ({ kind, wrap }) => {
      const live = wrap({
        containers: [{ name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] }],
      })
      const patch = wrap({
        containers: [{ name: 'a', image: 'a:2', env: [{ name: 'Y', value: '2' }] }],
      })
      const want = wrap({
        containers: [
          {
            name: 'a',
            image: 'a:2',
            env: [
              { name: 'Y', value: '2' },
              { name: 'X', value: '1' },
            ],
          },
        ],
      })
      expect(applyStrategicMergePatch(live, patch, kind)).toEqual(want)
    }
  )

  it('replaces lists of kinds without merge keys (Role rules)', () => {
    const rbac = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' }
    const out = applyStrategicMergePatch(
      { rules: [{ verbs: ['get'] }] },
      { rules: [{ verbs: ['list'] }] },
      rbac
    )
    expect(out).toEqual({ rules: [{ verbs: ['list'] }] })
  })

  it('does not mutate the live object or the patch', () => {
    const live = deployment({ containers: [{ name: 'a', image: '1' }] })
    const patch = { spec: { template: { spec: { containers: [{ name: 'a', image: '2' }] } } } }
    const liveCopy = structuredClone(live)
    const patchCopy = structuredClone(patch)
    applyStrategicMergePatch(live, patch, DEPLOYMENT)
    expect(live).toEqual(liveCopy)
    expect(patch).toEqual(patchCopy)
  })
})

describe('strategic merge directives', () => {
  const cases: Case[] = [
    {
      name: '$patch: replace on a map',
      live: { spec: { selector: { matchLabels: { a: '1', b: '2' } } } },
      patch: { spec: { selector: { $patch: 'replace', matchLabels: { c: '3' } } } },
      want: { spec: { selector: { matchLabels: { c: '3' } } } },
    },
    {
      name: '$patch: delete on a map removes it',
      live: { spec: { strategy: { type: 'Recreate' }, replicas: 2 } },
      patch: { spec: { strategy: { $patch: 'delete' } } },
      want: { spec: { replicas: 2 } },
    },
    {
      name: '$patch: merge is the default',
      live: { spec: { strategy: { type: 'Recreate' } } },
      patch: { spec: { strategy: { $patch: 'merge', extra: 1 } } },
      want: { spec: { strategy: { type: 'Recreate', extra: 1 } } },
    },
    {
      name: '$patch: replace in a keyed list',
      live: deployment({ containers: [{ name: 'a', image: '1' }, { name: 'b' }] }),
      patch: {
        spec: {
          template: { spec: { containers: [{ name: 'c', image: '3' }, { $patch: 'replace' }] } },
        },
      },
      want: deployment({ containers: [{ name: 'c', image: '3' }] }),
    },
    {
      name: '$patch: replace in a primitive set',
      gvk: POD,
      live: { metadata: { finalizers: ['a', 'b'] } },
      patch: { metadata: { finalizers: ['c', { $patch: 'replace' }] } },
      want: { metadata: { finalizers: ['c'] } },
    },
    {
      name: '$setElementOrder alone reorders the live list',
      live: deployment({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'extra' }] }),
      patch: {
        spec: {
          template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
        },
      },
      want: deployment({ containers: [{ name: 'b' }, { name: 'a' }, { name: 'extra' }] }),
    },
    {
      name: 'server-only items keep their place before patched items',
      live: deployment({ containers: [{ name: 'x' }, { name: 'a', image: '1' }, { name: 'b' }] }),
      patch: {
        spec: {
          template: {
            spec: {
              '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
              containers: [{ name: 'a', image: '2' }],
            },
          },
        },
      },
      want: deployment({ containers: [{ name: 'x' }, { name: 'b' }, { name: 'a', image: '2' }] }),
    },
    {
      name: 'directives nested in new values are applied, not stored',
      live: { spec: {} },
      patch: {
        spec: {
          template: {
            metadata: { labels: { a: null, b: '1' } },
            spec: {
              containers: [
                { name: 'a', $patch: 'merge' },
                { name: 'gone', $patch: 'delete' },
              ],
            },
          },
        },
      },
      want: {
        spec: {
          template: { metadata: { labels: { b: '1' } }, spec: { containers: [{ name: 'a' }] } },
        },
      },
    },
    {
      name: 'type change replaces the live value',
      live: { spec: { replicas: { weird: true }, template: 'x' } },
      patch: { spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }] } } } },
      want: { spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }] } } } },
    },
    {
      name: '$deleteFromPrimitiveList on a missing list is a no-op',
      gvk: POD,
      live: { metadata: {} },
      patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      want: { metadata: {} },
    },
  ]

  it.each(cases)('$name', ({ gvk, live, patch, want }) => {
    expect(applyStrategicMergePatch(live, patch, gvk ?? DEPLOYMENT)).toEqual(want)
  })

  const bad: { name: string; patch: JsonValue; message: string }[] = [
    { name: 'patch is not an object', patch: [1], message: 'must be a JSON object' },
    {
      name: 'keyed item without merge key',
      patch: { spec: { template: { spec: { containers: [{ image: 'x' }] } } } },
      message:
        '.spec.template.spec.containers[0]: {"image":"x"} does not contain declared merge key "name"',
    },
    {
      name: 'keyed item that is not an object',
      patch: { spec: { template: { spec: { containers: ['x'] } } } },
      message: 'expected an object with merge key "name"',
    },
    {
      name: 'delete directive without merge key',
      patch: { spec: { template: { spec: { containers: [{ $patch: 'delete' }] } } } },
      message: 'does not contain declared merge key',
    },
    {
      name: 'unknown $patch',
      patch: { spec: { $patch: 'explode' } },
      message: '.spec: unknown $patch directive "explode"',
    },
    {
      name: '$retainKeys not a list',
      patch: { spec: { $retainKeys: 'a' } },
      message: 'the value of $retainKeys must be a list',
    },
    {
      name: '$retainKeys of numbers',
      patch: { spec: { $retainKeys: [1] } },
      message: '$retainKeys must be a list of strings',
    },
    {
      name: '$setElementOrder not a list',
      patch: { spec: { template: { spec: { '$setElementOrder/containers': {} } } } },
      message: 'the value of $setElementOrder/containers must be a list',
    },
    {
      name: 'objects in a primitive set',
      patch: { metadata: { finalizers: [{ a: 1 }] } },
      message: '.metadata.finalizers: expected a list of primitive values',
    },
  ]

  it.each(bad)('400 BadRequest: $name', ({ patch, message }) => {
    const err = failure(() => applyStrategicMergePatch(deployment({}), patch, DEPLOYMENT))
    expect(err.code).toBe(400)
    expect(err.message).toContain(message)
  })
})

describe('supportsStrategicMerge', () => {
  it.each([
    ['', 'ConfigMap', true],
    ['apps', 'Deployment', true],
    ['networking.k8s.io', 'Ingress', true],
    ['apiextensions.k8s.io', 'CustomResourceDefinition', true],
    ['control.kubestellar.io', 'BindingPolicy', false],
    ['tenancy.kcp.io', 'Workspace', false],
    ['example.com', 'Widget', false],
    ['apps', '', false],
  ])('%s/%s -> %s', (group, kind, want) => {
    expect(supportsStrategicMerge(group, kind)).toBe(want)
  })

  it('answers 415 when asked to patch a custom resource', () => {
    const err = failure(() =>
      applyStrategicMergePatch(
        {},
        { spec: {} },
        { group: 'example.com', version: 'v1', kind: 'Widget' }
      )
    )
    expect(err.code).toBe(415)
    expect(err.reason).toBe('UnsupportedMediaType')
  })
})
