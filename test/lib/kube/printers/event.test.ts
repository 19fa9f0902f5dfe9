import { describe, expect, it } from 'vitest'
import { EVENT_PRINTER } from '../../../../lib/kube/printers/event.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T01:00:00Z')
const event = (body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.17a' },
  ...(body as Record<string, never>),
})
const cells = (e: KubeObject) => EVENT_PRINTER.row(e, { now: NOW }).cells

describe('EVENT_PRINTER', () => {
  it('starts with LAST SEEN and hides the wide columns behind priority 1', () => {
    expect(EVENT_PRINTER.columns.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Message',
    ])
    expect(EVENT_PRINTER.columns.at(-1)).toMatchObject({
      name: 'Name',
      format: 'name',
      priority: 1,
    })
  })

  it('prints a core event', () => {
    const e = event({
      type: 'Warning',
      reason: 'BackOff',
      message: ' Back-off restarting \n',
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{web}' },
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2025-01-01T00:00:00Z',
      lastTimestamp: '2025-01-01T00:55:00Z',
      count: 7,
    })
    expect(cells(e)).toEqual([
      '5m',
      'Warning',
      'BackOff',
      'pod/web-1',
      'spec.containers{web}',
      'kubelet, node-1',
      'Back-off restarting',
      '60m',
      7,
      'web.17a',
    ])
  })

  it('falls back to eventTime, the series and a count of 1', () => {
    const single = event({
      eventTime: '2025-01-01T00:59:30Z',
      involvedObject: { kind: 'Node' },
      reportingController: 'ctrl',
    })
    expect(cells(single)).toEqual(['30s', '', '', 'node', '', 'ctrl', '', '30s', 1, 'web.17a'])
    const series = event({
      eventTime: '2025-01-01T00:00:00Z',
      series: { count: 4, lastObservedTime: '2025-01-01T00:58:00Z' },
    })
    expect([cells(series)[0], cells(series)[8]]).toEqual(['2m', 4])
    expect(cells(event({}))[0]).toBe('<unknown>')
  })

  it('reads events.k8s.io field names', () => {
    const e = event({
      apiVersion: 'events.k8s.io/v1',
      note: 'Scaled up',
      regarding: { kind: 'Deployment', name: 'web' },
      deprecatedSource: { component: 'deployment-controller' },
      deprecatedFirstTimestamp: '2025-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2025-01-01T00:50:00Z',
      deprecatedCount: 2,
    })
    expect(cells(e)).toEqual([
      '10m',
      '',
      '',
      'deployment/web',
      '',
      'deployment-controller',
      'Scaled up',
      '60m',
      2,
      'web.17a',
    ])
  })
})
