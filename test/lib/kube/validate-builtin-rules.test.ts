import { describe, expect, it } from 'vitest'
import { builtinRuleCauses, selectorMatches } from '../../../lib/kube/validate-builtin-rules.ts'

const fields = (causes: { field?: string }[]) => causes.map((c) => c.field)
const podTemplate = (
  spec: Record<string, unknown>,
  labels: Record<string, string> = { app: 'a' }
) => ({
  metadata: { labels },
  spec,
})

describe('selectorMatches', () => {
  it('evaluates matchLabels and all operators', () => {
    const labels = { app: 'a', tier: 'web' }
    expect(selectorMatches({ matchLabels: { app: 'a' } }, labels)).toBe(true)
    expect(selectorMatches({ matchLabels: { app: 'b' } }, labels)).toBe(false)
    expect(
      selectorMatches(
        { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'db'] }] },
        labels
      )
    ).toBe(true)
    expect(
      selectorMatches(
        { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['web'] }] },
        labels
      )
    ).toBe(false)
    expect(
      selectorMatches({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels)
    ).toBe(true)
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, labels)).toBe(
      false
    )
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'Weird' }] }, labels)).toBe(
      false
    )
  })
})

describe('builtinRuleCauses', () => {
  it('ConfigMap keys, duplicates and binaryData base64', () => {
    const causes = builtinRuleCauses('', 'ConfigMap', {
      data: { 'a b': 'x', k: 'v' },
      binaryData: { k: 'not base64!' },
    })
    expect(fields(causes)).toEqual(['data', 'binaryData', 'binaryData[k]'])
    expect(
      builtinRuleCauses('', 'ConfigMap', {
        data: { 'index.html': 'x' },
        binaryData: { bin: 'AAEC' },
      })
    ).toEqual([])
    const big = builtinRuleCauses('', 'ConfigMap', { data: { a: 'x'.repeat(1024 * 1024 + 1) } })
    expect(big[0]?.reason).toBe('FieldValueTooLong')
  })

  it('Secret data must be base64', () => {
    expect(fields(builtinRuleCauses('', 'Secret', { data: { a: '%%%' } }))).toEqual(['data[a]'])
    expect(
      builtinRuleCauses('', 'Secret', { data: { a: 'YWJj' }, stringData: { b: 'plain' } })
    ).toEqual([])
  })

  it('Pods need named containers with images', () => {
    const causes = builtinRuleCauses('', 'Pod', {
      spec: {
        containers: [{ name: 'a' }, { name: 'a', image: 'x' }, { image: 'y' }],
        restartPolicy: 'Sometimes',
      },
    })
    expect(fields(causes)).toEqual([
      'spec.containers[0].image',
      'spec.containers[1].name',
      'spec.containers[2].name',
      'spec.restartPolicy',
    ])
    expect(causes[1]?.reason).toBe('FieldValueDuplicate')
    expect(fields(builtinRuleCauses('', 'Pod', { spec: { containers: [] } }))).toEqual([
      'spec.containers',
    ])
    expect(fields(builtinRuleCauses('', 'Pod', {}))).toEqual(['spec'])
  })

  it('workload controllers need a matching, non-empty selector and restartPolicy Always', () => {
    const ok = {
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: podTemplate({ containers: [{ name: 'c' }] }),
      },
    }
    expect(builtinRuleCauses('apps', 'ReplicaSet', ok)).toEqual([])
    const noSelector = { spec: { template: podTemplate({ containers: [{ name: 'c' }] }) } }
    expect(fields(builtinRuleCauses('apps', 'Deployment', noSelector))).toEqual(['spec.selector'])
    const empty = { spec: { selector: {}, template: podTemplate({ containers: [{ name: 'c' }] }) } }
    expect(builtinRuleCauses('apps', 'DaemonSet', empty)[0]?.message).toContain(
      'empty selector is invalid for daemonset'
    )
    const never = {
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: podTemplate({ containers: [{ name: 'c' }], restartPolicy: 'Never' }),
      },
    }
    expect(builtinRuleCauses('apps', 'StatefulSet', never)).toEqual([
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Never": supported values: "Always"',
        field: 'spec.template.spec.restartPolicy',
      },
    ])
    expect(
      fields(
        builtinRuleCauses('apps', 'Deployment', {
          spec: { selector: { matchLabels: { app: 'a' } } },
        })
      )
    ).toEqual(['spec.template', 'spec.template.metadata.labels'])
  })

  it('Jobs and CronJobs need restartPolicy OnFailure or Never', () => {
    const job = { spec: { template: podTemplate({ containers: [{ name: 'c', image: 'i' }] }) } }
    expect(builtinRuleCauses('batch', 'Job', job)[0]).toMatchObject({
      field: 'spec.template.spec.restartPolicy',
      message: 'Unsupported value: "Always": supported values: "OnFailure", "Never"',
    })
    const cron = {
      spec: {
        jobTemplate: {
          spec: {
            template: podTemplate({ containers: [{ name: 'c' }], restartPolicy: 'OnFailure' }),
          },
        },
      },
    }
    expect(fields(builtinRuleCauses('batch', 'CronJob', cron))).toEqual(['spec.schedule'])
    expect(
      fields(builtinRuleCauses('batch', 'CronJob', { spec: { schedule: '* * * * *' } }))
    ).toEqual(['spec.jobTemplate.spec'])
  })

  it('Services: type, ports, port range, protocol, names', () => {
    expect(fields(builtinRuleCauses('', 'Service', { spec: {} }))).toEqual(['spec.ports'])
    expect(builtinRuleCauses('', 'Service', { spec: { clusterIP: 'None' } })).toEqual([])
    expect(fields(builtinRuleCauses('', 'Service', { spec: { type: 'ExternalName' } }))).toEqual([
      'spec.externalName',
    ])
    const causes = builtinRuleCauses('', 'Service', {
      spec: {
        type: 'Magic',
        ports: [
          { port: 0, protocol: 'HTTP' },
          { port: 80, name: 'a' },
        ],
      },
    })
    expect(fields(causes)).toEqual([
      'spec.type',
      'spec.ports[0].port',
      'spec.ports[0].protocol',
      'spec.ports[0].name',
    ])
  })

  it('has no rules for other kinds', () => {
    expect(builtinRuleCauses('rbac.authorization.k8s.io', 'Role', {})).toEqual([])
  })
})
