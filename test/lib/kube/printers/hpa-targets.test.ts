import { describe, expect, it } from 'vitest'
import { hpaTargets } from '../../../../lib/kube/printers/hpa-targets.ts'

const resource = (name: string, target: Record<string, unknown>) => ({
  type: 'Resource',
  resource: { name, target },
})

describe('hpaTargets', () => {
  it('prints utilization and average value resource metrics', () => {
    const hpa = {
      spec: {
        metrics: [
          resource('cpu', { averageUtilization: 80 }),
          resource('memory', { averageValue: '512Mi' }),
        ],
      },
      status: {
        currentMetrics: [
          { resource: { current: { averageUtilization: 40 } } },
          { resource: { current: { averageValue: '300Mi' } } },
        ],
      },
    }
    expect(hpaTargets(hpa)).toBe('cpu: 40%/80%, memory: 300Mi/512Mi')
  })

  it('prints unknown currents, auto targets and counts the rest', () => {
    const hpa = {
      spec: {
        metrics: [
          resource('cpu', {}),
          { type: 'Pods', pods: { target: { averageValue: '1k' } } },
          { type: 'External', external: { target: { value: '10' } } },
        ],
      },
    }
    expect(hpaTargets(hpa)).toBe('cpu: <unknown>/<auto>, <unknown>/1k + 1 more...')
  })

  it('prints external and object metrics, averaged or not', () => {
    const ext = (target: Record<string, unknown>, current: Record<string, unknown>) =>
      hpaTargets({
        spec: { metrics: [{ type: 'External', external: { target } }] },
        status: { currentMetrics: [{ external: { current } }] },
      })
    expect(ext({ averageValue: '2' }, { averageValue: '1' })).toBe('1/2 (avg)')
    expect(ext({ value: '5' }, { value: '3' })).toBe('3/5')
    const obj = { type: 'Object', object: { target: { value: 7 } } }
    expect(hpaTargets({ spec: { metrics: [obj, { type: 'Mystery' }] } })).toBe(
      '<unknown>/7, <unknown type>'
    )
    const cr = {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', target: { averageUtilization: 50 } },
    }
    expect(hpaTargets({ spec: { metrics: [cr] } })).toBe('cpu: <unknown>/50%')
  })

  it('reads autoscaling/v1 cpu targets and says <none> without metrics', () => {
    expect(
      hpaTargets({
        spec: { targetCPUUtilizationPercentage: 70 },
        status: { currentCPUUtilizationPercentage: 12 },
      })
    ).toBe('cpu: 12%/70%')
    expect(hpaTargets({ spec: { targetCPUUtilizationPercentage: 70 } })).toBe('cpu: <unknown>/70%')
    expect(hpaTargets({ spec: {} })).toBe('<none>')
  })
})
