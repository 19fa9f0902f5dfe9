/**
 * A simulated edge's API-server defaults, kind by kind (without a store): kube's declared
 * defaults and what a running cluster adds (admission, a Job's generated selector).
 */
import { describe, expect, it } from 'vitest'
import { apiServerDefaults, CLUSTER_ADDITIONS } from '../../../lib/edge-sim/defaults.ts'
import type { DefaultingRequest, HubDeps } from '../../../lib/hub/deps.ts'
import { ROOT } from '../../../lib/hub/spaces.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

const container = { name: 'c', image: 'nginx:1.27' }
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [container] } }
const DEFAULTED_TEMPLATE_SPEC = {
  restartPolicy: 'Always',
  dnsPolicy: 'ClusterFirst',
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
  securityContext: {},
  containers: [
    {
      name: 'c',
      image: 'nginx:1.27',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
    },
  ],
}
const selector = { matchLabels: { app: 'a' } }

const obj = (apiVersion: string, kind: string, spec: unknown, extra = {}): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name: 'x', namespace: 'n', uid: 'uid-1' },
  spec: spec as never,
  ...extra,
})

const request = (group: string, resource: string, o: KubeObject): DefaultingRequest => ({
  deps: {} as HubDeps,
  space: ROOT,
  group,
  resource,
  obj: o,
  dryRun: false,
})

const defaulted = async (group: string, resource: string, o: KubeObject) =>
  (await apiServerDefaults(request(group, resource, o))) as KubeObject & Record<string, any>

describe('the API-server defaults table', () => {
  it.for<[what: string, group: string, resource: string, input: KubeObject, spec: unknown]>([
    [
      'a Deployment',
      'apps',
      'deployments',
      obj('apps/v1', 'Deployment', { selector, template }),
      {
        replicas: 1,
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
        },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        selector,
        template: { metadata: template.metadata, spec: DEFAULTED_TEMPLATE_SPEC },
      },
    ],
    [
      'a Recreate Deployment scaled to 0 (explicit values kept)',
      'apps',
      'deployments',
      obj('apps/v1', 'Deployment', {
        replicas: 0,
        strategy: { type: 'Recreate' },
        selector,
        template,
      }),
      expect.objectContaining({ replicas: 0, strategy: { type: 'Recreate' } }),
    ],
    [
      'a ReplicaSet',
      'apps',
      'replicasets',
      obj('apps/v1', 'ReplicaSet', { selector, template }),
      {
        replicas: 1,
        selector,
        template: { metadata: template.metadata, spec: DEFAULTED_TEMPLATE_SPEC },
      },
    ],
    [
      'a StatefulSet',
      'apps',
      'statefulsets',
      obj('apps/v1', 'StatefulSet', { selector, template, serviceName: 's' }),
      expect.objectContaining({
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      }),
    ],
    [
      'a DaemonSet',
      'apps',
      'daemonsets',
      obj('apps/v1', 'DaemonSet', { selector, template }),
      expect.objectContaining({
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
        },
        revisionHistoryLimit: 10,
      }),
    ],
    [
      'a Job (generated selector and pod labels)',
      'batch',
      'jobs',
      obj('batch/v1', 'Job', {
        template: { spec: { restartPolicy: 'Never', containers: [container] } },
      }),
      expect.objectContaining({
        parallelism: 1,
        completions: 1,
        backoffLimit: 6,
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } },
        template: expect.objectContaining({
          metadata: {
            labels: {
              'batch.kubernetes.io/controller-uid': 'uid-1',
              'batch.kubernetes.io/job-name': 'x',
              'controller-uid': 'uid-1',
              'job-name': 'x',
            },
          },
          spec: expect.objectContaining({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' }),
        }),
      }),
    ],
    [
      'a Job with a manual selector and parallelism only',
      'batch',
      'jobs',
      obj('batch/v1', 'Job', { manualSelector: true, selector, parallelism: 3, template }),
      expect.not.objectContaining({ completions: expect.anything() }),
    ],
    [
      'a CronJob',
      'batch',
      'cronjobs',
      obj('batch/v1', 'CronJob', { schedule: '* * * * *', jobTemplate: { spec: { template } } }),
      {
        schedule: '* * * * *',
        concurrencyPolicy: 'Allow',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: {
          spec: { template: { metadata: template.metadata, spec: DEFAULTED_TEMPLATE_SPEC } },
        },
      },
    ],
    [
      'a Pod (admission defaults too)',
      '',
      'pods',
      obj('v1', 'Pod', {
        containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }],
        volumes: [{ name: 'v', configMap: { name: 'cm' } }],
      }),
      expect.objectContaining({
        restartPolicy: 'Always',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        priority: 0,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        tolerations: [
          expect.objectContaining({ key: 'node.kubernetes.io/not-ready', tolerationSeconds: 300 }),
          expect.objectContaining({
            key: 'node.kubernetes.io/unreachable',
            tolerationSeconds: 300,
          }),
        ],
        containers: [
          expect.objectContaining({
            imagePullPolicy: 'Always',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
          }),
        ],
        volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
      }),
    ],
  ])('fills in %s', async ([_what, group, resource, input, spec]) => {
    const before = structuredClone(input)
    const out = await defaulted(group, resource, input)
    expect(out.spec).toEqual(spec)
    expect(input).toEqual(before)
  })

  it('defaults probes and a Secret type; kinds without an entry pass through untouched', async () => {
    const probe = { httpGet: { path: '/', port: 80 } }
    const pod = await defaulted(
      '',
      'pods',
      obj('v1', 'Pod', { containers: [{ ...container, readinessProbe: probe }] })
    )
    expect(pod.spec.containers[0].readinessProbe).toEqual({
      httpGet: { path: '/', port: 80, scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    })
    const manual = await defaulted(
      'batch',
      'jobs',
      obj('batch/v1', 'Job', { manualSelector: true, selector, parallelism: 3, template })
    )
    expect(manual.spec).toMatchObject({ parallelism: 3, selector, backoffLimit: 6 })
    expect(manual.spec.template.metadata).toEqual(template.metadata)
    const secret = obj('v1', 'Secret', undefined, { data: {} })
    expect((await defaulted('', 'secrets', secret)).type).toBe('Opaque')
    const cm = obj('v1', 'ConfigMap', undefined, { data: { a: '1' } })
    expect(await defaulted('', 'configmaps', cm)).toBe(cm)
    expect(Object.keys(CLUSTER_ADDITIONS).sort()).toEqual(['/pods', '/services', 'batch/jobs'])
  })
})
