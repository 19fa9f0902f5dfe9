/**
 * kube's declared defaults of the built-in kinds: what filling gives kind by kind, and the inverse
 * the translate step sends — the object less what filling would put back, which fills again to
 * the same object, keeps every value the user chose, and leaves derived defaults (imagePullPolicy,
 * targetPort) to be derived again from what a Customizer changed.
 */
import { describe, expect, it } from 'vitest'
import {
  BUILTIN_DEFAULTS,
  fillBuiltinDefaults,
  withoutBuiltinDefaults,
} from '../../../../lib/kube/defaults/builtin-defaults.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

type Loose = KubeObject & Record<string, any>

const container = { name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [container] } }
const selector = { matchLabels: { app: 'a' } }
const meta = { name: 'x', namespace: 'n' }

const of = (apiVersion: string, kind: string, spec: unknown, extra = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: meta,
  spec: spec as never,
  ...extra,
})

const FILLED_TEMPLATE_SPEC = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
  containers: [
    {
      name: 'c',
      image: 'nginx:1.27',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
    },
  ],
}

const filled = (o: KubeObject) => fillBuiltinDefaults(o) as Loose

describe('fillBuiltinDefaults', () => {
  it('fills a Deployment as kube-apiserver does', () => {
    const input = of('apps/v1', 'Deployment', { selector, template })
    const before = structuredClone(input)
    expect(filled(input).spec).toEqual({
      replicas: 1,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      selector,
      template: { metadata: template.metadata, spec: FILLED_TEMPLATE_SPEC },
    })
    expect(input).toEqual(before)
  })

  it.for<[what: string, input: KubeObject, spec: unknown]>([
    [
      'a Recreate Deployment scaled to 0 keeps its values',
      of('apps/v1', 'Deployment', { replicas: 0, strategy: { type: 'Recreate' }, template }),
      expect.objectContaining({ replicas: 0, strategy: { type: 'Recreate' } }),
    ],
    [
      'a ReplicaSet',
      of('apps/v1', 'ReplicaSet', { selector, template }),
      {
        replicas: 1,
        selector,
        template: { metadata: template.metadata, spec: FILLED_TEMPLATE_SPEC },
      },
    ],
    [
      'a StatefulSet with a claim template',
      of('apps/v1', 'StatefulSet', {
        selector,
        template,
        serviceName: 's',
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['RWO'] } }],
      }),
      expect.objectContaining({
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['RWO'], volumeMode: 'Filesystem' },
            status: { phase: 'Pending' },
          },
        ],
      }),
    ],
    [
      'a DaemonSet',
      of('apps/v1', 'DaemonSet', { selector, template }),
      expect.objectContaining({
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
        },
        revisionHistoryLimit: 10,
      }),
    ],
    [
      'a Job, without a generated selector',
      of('batch/v1', 'Job', {
        template: { spec: { restartPolicy: 'Never', containers: [container] } },
      }),
      {
        completions: 1,
        parallelism: 1,
        backoffLimit: 6,
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
        template: { spec: { ...FILLED_TEMPLATE_SPEC, restartPolicy: 'Never' } },
      },
    ],
    [
      'a work-queue Job (parallelism only) and one with a failure policy',
      of('batch/v1', 'Job', { parallelism: 3, podFailurePolicy: { rules: [] }, template }),
      expect.not.objectContaining({ completions: expect.anything() }),
    ],
    [
      'a CronJob: its job template gets only the pod template defaults',
      of('batch/v1', 'CronJob', { schedule: '* * * * *', jobTemplate: { spec: { template } } }),
      {
        schedule: '* * * * *',
        concurrencyPolicy: 'Allow',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: {
          spec: { template: { metadata: template.metadata, spec: FILLED_TEMPLATE_SPEC } },
        },
      },
    ],
    [
      'a Service: protocols and targetPorts, no clusterIP',
      of('v1', 'Service', {
        selector: { app: 'a' },
        ports: [{ port: 80 }, { port: 53, protocol: 'UDP', targetPort: 'dns' }],
      }),
      {
        selector: { app: 'a' },
        sessionAffinity: 'None',
        type: 'ClusterIP',
        internalTrafficPolicy: 'Cluster',
        ports: [
          { port: 80, protocol: 'TCP', targetPort: 80 },
          { port: 53, protocol: 'UDP', targetPort: 'dns' },
        ],
      },
    ],
    [
      'a LoadBalancer Service with ClientIP affinity',
      of('v1', 'Service', {
        type: 'LoadBalancer',
        sessionAffinity: 'ClientIP',
        ports: [{ port: 443 }],
      }),
      expect.objectContaining({
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        externalTrafficPolicy: 'Cluster',
        internalTrafficPolicy: 'Cluster',
        allocateLoadBalancerNodePorts: true,
      }),
    ],
  ])('fills %s', ([_what, input, spec]) => {
    expect(filled(input).spec).toEqual(spec)
  })

  it('fills a Pod (enableServiceLinks, probes, fieldRefs, volumes) and a Secret', () => {
    const pod = filled(
      of('v1', 'Pod', {
        containers: [
          {
            name: 'c',
            image: 'registry.example:5000/app',
            readinessProbe: { httpGet: { port: 80 }, periodSeconds: 0 },
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          },
        ],
        volumes: [{ name: 'v', configMap: { name: 'cm' } }],
      })
    )
    expect(pod.spec).toMatchObject({ enableServiceLinks: true, restartPolicy: 'Always' })
    expect(pod.spec.serviceAccountName).toBeUndefined()
    expect(pod.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      readinessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
      env: [{ valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
    })
    expect(pod.spec.volumes).toEqual([{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }])
    const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: meta, data: {} }
    expect(filled(secret).type).toBe('Opaque')
  })

  it('leaves kinds without defaults as they are (a ConfigMap, a CRD kind)', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: {} }
    expect(fillBuiltinDefaults(cm)).toBe(cm)
    const widget = of('example.com/v1', 'Deployment', { template })
    expect(fillBuiltinDefaults(widget)).toBe(widget)
    expect([...BUILTIN_DEFAULTS.keys()].sort()).toEqual([
      'apps/v1 DaemonSet',
      'apps/v1 Deployment',
      'apps/v1 ReplicaSet',
      'apps/v1 StatefulSet',
      'batch/v1 CronJob',
      'batch/v1 Job',
      'v1 Pod',
      'v1 Secret',
      'v1 Service',
    ])
  })
})

describe('withoutBuiltinDefaults', () => {
  const written: KubeObject[] = [
    of('apps/v1', 'Deployment', { selector, template }),
    of('apps/v1', 'Deployment', {
      replicas: 3,
      strategy: { rollingUpdate: { maxSurge: '50%' } },
      selector,
      template,
    }),
    of('apps/v1', 'StatefulSet', { selector, template, updateStrategy: { type: 'OnDelete' } }),
    of('apps/v1', 'DaemonSet', { selector, template }),
    of('batch/v1', 'Job', { template }),
    of('batch/v1', 'Job', { parallelism: 1, template }),
    of('batch/v1', 'Job', { parallelism: 2, completions: 1, backoffLimitPerIndex: 1, template }),
    of('batch/v1', 'CronJob', { schedule: '@daily', jobTemplate: { spec: { template } } }),
    of('v1', 'Service', { ports: [{ port: 80 }, { port: 81, targetPort: 8081 }] }),
    of('v1', 'Service', { type: 'NodePort', ports: [{ port: 80, targetPort: 0 }] }),
    of('v1', 'Pod', {
      containers: [{ ...container, livenessProbe: { exec: { command: ['x'] } } }],
    }),
  ]

  it.each(written)('fills again to the stored object, written or stored (%#)', (w) => {
    const stored = fillBuiltinDefaults(w)
    expect(fillBuiltinDefaults(withoutBuiltinDefaults(stored))).toEqual(stored)
    expect(fillBuiltinDefaults(withoutBuiltinDefaults(w))).toEqual(stored)
  })

  it('removes exactly the center-filled values of a plain Deployment', () => {
    const w = of('apps/v1', 'Deployment', { selector, template })
    expect(withoutBuiltinDefaults(fillBuiltinDefaults(w))).toEqual(w)
  })

  it('keeps what differs from a default, and a value a default depends on being unset', () => {
    const job = withoutBuiltinDefaults(
      fillBuiltinDefaults(of('batch/v1', 'Job', { parallelism: 1, template }))
    ) as Loose
    // without parallelism the edge would fill completions 1: a work queue would become one run
    expect(job.spec.parallelism).toBe(1)
    expect(job.spec.completions).toBeUndefined()
    const deployment = withoutBuiltinDefaults(
      fillBuiltinDefaults(
        of('apps/v1', 'Deployment', { strategy: { rollingUpdate: { maxSurge: '50%' } }, template })
      )
    ) as Loose
    expect(deployment.spec.strategy).toEqual({ rollingUpdate: { maxSurge: '50%' } })
  })

  it('lets derived defaults follow a changed source, as an edge fills them from its copy', () => {
    const stored = fillBuiltinDefaults(of('v1', 'Service', { ports: [{ port: 80 }] })) as Loose
    const sent = withoutBuiltinDefaults(stored) as Loose
    sent.spec.ports[0].port = 8080 // what a Customizer does for one edge
    expect((fillBuiltinDefaults(sent) as Loose).spec.ports[0].targetPort).toBe(8080)
    const pod = withoutBuiltinDefaults(
      fillBuiltinDefaults(of('v1', 'Pod', { containers: [{ name: 'c', image: 'app:v1' }] }))
    ) as Loose
    pod.spec.containers[0].image = 'app:latest'
    expect((fillBuiltinDefaults(pod) as Loose).spec.containers[0].imagePullPolicy).toBe('Always')
  })
})
