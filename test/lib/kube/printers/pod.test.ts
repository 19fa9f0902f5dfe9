import { describe, expect, it } from 'vitest'
import { POD_PRINTER } from '../../../../lib/kube/printers/pod.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T12:00:00Z')
const pod = (
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
  meta = {}
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', creationTimestamp: '2025-01-01T11:00:00Z', ...meta },
  spec: { containers: [{ name: 'a' }, { name: 'b' }], ...spec } as never,
  ...(status ? { status: status as never } : {}),
})
const cells = (p: KubeObject) => POD_PRINTER.row(p, { now: NOW }).cells
const running = (name: string, ready = true, restartCount = 0) => ({
  name,
  ready,
  restartCount,
  state: { running: { startedAt: '2025-01-01T11:00:00Z' } },
})

describe('POD_PRINTER', () => {
  it('has kube columns, the last four wide', () => {
    expect(POD_PRINTER.columns.map((c) => c.name)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
      'IP',
      'Node',
      'Nominated Node',
      'Readiness Gates',
    ])
    expect(POD_PRINTER.columns.map((c) => c.priority)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1])
  })

  it('prints a running pod with wide cells', () => {
    const p = pod(
      { nodeName: 'n1', readinessGates: [{ conditionType: 'x' }, { conditionType: 'y' }] },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.1.2.3' }],
        conditions: [
          { type: 'x', status: 'True' },
          { type: 'y', status: 'False' },
        ],
        containerStatuses: [running('a'), running('b', false)],
      }
    )
    expect(cells(p)).toEqual(['p', '1/2', 'Running', '0', '60m', '10.1.2.3', 'n1', '<none>', '1/2'])
  })

  it('reads Pending without a status, and <none> for unknown placement', () => {
    expect(cells(pod({}))).toEqual([
      'p',
      '0/2',
      'Pending',
      '0',
      '60m',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ])
  })

  it('shows the waiting reason and restarts with the time of the last one', () => {
    const crashing = {
      name: 'a',
      restartCount: 4,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, finishedAt: '2025-01-01T11:55:00Z' } },
    }
    const p = pod({}, { phase: 'Running', containerStatuses: [crashing, running('b', true, 1)] })
    expect(cells(p).slice(1, 4)).toEqual(['1/2', 'CrashLoopBackOff', '5 (5m ago)'])
  })

  it('shows Completed, ExitCode and Signal terminations, and Running when a sibling still runs', () => {
    const done = (name: string, t: Record<string, unknown>) => ({ name, state: { terminated: t } })
    const ok = done('a', { exitCode: 0, reason: 'Completed' })
    expect(
      cells(
        pod({ containers: [{ name: 'a' }] }, { phase: 'Succeeded', containerStatuses: [ok] })
      )[2]
    ).toBe('Completed')
    expect(
      cells(
        pod({}, { phase: 'Running', containerStatuses: [done('a', { exitCode: 3 }), running('b')] })
      )[2]
    ).toBe('ExitCode:3')
    expect(
      cells(
        pod({}, { phase: 'Running', containerStatuses: [done('a', { signal: 9 }), running('b')] })
      )[2]
    ).toBe('Signal:9')
    const mixed = { phase: 'Running', containerStatuses: [running('a'), ok] }
    expect(cells(pod({}, mixed))[2]).toBe('NotReady')
    expect(cells(pod({}, { ...mixed, conditions: [{ type: 'Ready', status: 'True' }] }))[2]).toBe(
      'Running'
    )
  })

  it('marks finished pods with a Completed row condition', () => {
    const row = POD_PRINTER.row(pod({}, { phase: 'Failed' }), { now: NOW })
    expect(row.conditions).toEqual([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ])
    expect(POD_PRINTER.row(pod({}, { phase: 'Running' }), { now: NOW }).conditions).toBeUndefined()
  })

  it('reports init container progress and failures', () => {
    const spec = { initContainers: [{ name: 'i1' }, { name: 'i2' }] }
    const done = { name: 'i1', state: { terminated: { exitCode: 0 } } }
    const runningInit = { name: 'i2', state: { running: {} } }
    expect(
      cells(pod(spec, { phase: 'Pending', initContainerStatuses: [done, runningInit] }))[2]
    ).toBe('Init:1/2')
    const waiting = { name: 'i1', state: { waiting: { reason: 'ImagePullBackOff' } } }
    expect(cells(pod(spec, { phase: 'Pending', initContainerStatuses: [waiting] }))[2]).toBe(
      'Init:ImagePullBackOff'
    )
    const failed = {
      name: 'i1',
      restartCount: 2,
      state: { terminated: { exitCode: 1, reason: 'Error' } },
    }
    expect(
      cells(pod(spec, { phase: 'Pending', initContainerStatuses: [failed] })).slice(2, 4)
    ).toEqual(['Init:Error', '2'])
    const code = { name: 'i1', state: { terminated: { exitCode: 2 } } }
    expect(cells(pod(spec, { phase: 'Pending', initContainerStatuses: [code] }))[2]).toBe(
      'Init:ExitCode:2'
    )
  })

  it('counts started sidecars in READY and their restarts', () => {
    const spec = { initContainers: [{ name: 'side', restartPolicy: 'Always' }] }
    const side = {
      name: 'side',
      started: true,
      ready: true,
      restartCount: 1,
      state: { running: {} },
    }
    const status = {
      phase: 'Running',
      initContainerStatuses: [side],
      containerStatuses: [running('a'), running('b')],
    }
    expect(cells(pod(spec, status)).slice(1, 4)).toEqual(['3/3', 'Running', '1'])
  })

  it('reads SchedulingGated, Terminating and Unknown', () => {
    const gated = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
    }
    expect(cells(pod({}, gated))[2]).toBe('SchedulingGated')
    const deleted = { deletionTimestamp: '2025-01-01T11:59:00Z' }
    expect(cells(pod({}, { phase: 'Running' }, deleted))[2]).toBe('Terminating')
    expect(cells(pod({}, { phase: 'Succeeded' }, deleted))[2]).toBe('Succeeded')
    expect(cells(pod({}, { phase: 'Running', reason: 'NodeLost' }, deleted))[2]).toBe('Unknown')
  })
})
