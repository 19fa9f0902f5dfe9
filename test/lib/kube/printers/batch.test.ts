import { describe, expect, it } from 'vitest'
import { CRON_JOB_PRINTER, JOB_PRINTER } from '../../../../lib/kube/printers/batch.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T01:00:00Z')
const obj = (kind: string, body: Record<string, unknown>, meta = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind,
  metadata: { name: 'j', creationTimestamp: '2025-01-01T00:00:00Z', ...meta },
  ...(body as Record<string, never>),
})
const job = (body: Record<string, unknown>, meta = {}) =>
  JOB_PRINTER.row(obj('Job', body, meta), { now: NOW }).cells

describe('JOB_PRINTER', () => {
  it('prints status, completions and duration', () => {
    expect(JOB_PRINTER.columns.map((c) => c.name).slice(0, 5)).toEqual([
      'Name',
      'Status',
      'Completions',
      'Duration',
      'Age',
    ])
    const done = job({
      spec: {
        completions: 1,
        template: { spec: { containers: [{ name: 'c', image: 'i' }] } },
        selector: { matchLabels: { j: 'x' } },
      },
      status: {
        succeeded: 1,
        startTime: '2025-01-01T00:00:05Z',
        completionTime: '2025-01-01T00:00:35Z',
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    })
    expect(done).toEqual(['j', 'Complete', '1/1', '30s', '60m', 'c', 'i', 'j=x'])
  })

  it('reads the status from conditions and deletion', () => {
    const cond = (type: string, status = 'True') => ({ status: { conditions: [{ type, status }] } })
    expect(job(cond('Failed'))[1]).toBe('Failed')
    expect(job(cond('Suspended'))[1]).toBe('Suspended')
    expect(job(cond('FailureTarget'))[1]).toBe('FailureTarget')
    expect(job(cond('Complete', 'False'))[1]).toBe('Running')
    expect(job({}, { deletionTimestamp: '2025-01-01T00:59:00Z' })[1]).toBe('Terminating')
  })

  it('writes completions for parallel jobs and runs duration to now', () => {
    expect(job({ spec: { parallelism: 3 }, status: { succeeded: 1 } })[2]).toBe('1/1 of 3')
    expect(job({})[2]).toBe('0/1')
    expect(job({ status: { startTime: '2025-01-01T00:58:00Z' } })[3]).toBe('2m')
    expect(job({})[3]).toBe('')
  })
})

describe('CRON_JOB_PRINTER', () => {
  it('prints schedule, timezone, suspend, active and last schedule', () => {
    const cj = obj('CronJob', {
      spec: {
        schedule: '*/5 * * * *',
        timeZone: 'Etc/UTC',
        suspend: true,
        jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } },
      },
      status: { active: [{ name: 'a' }], lastScheduleTime: '2025-01-01T00:55:00Z' },
    })
    expect(CRON_JOB_PRINTER.row(cj, { now: NOW }).cells).toEqual([
      'j',
      '*/5 * * * *',
      'Etc/UTC',
      'True',
      1,
      '5m',
      '60m',
      'c',
      'i',
      '<none>',
    ])
    const bare = obj('CronJob', { spec: { schedule: '@daily' } })
    expect(CRON_JOB_PRINTER.row(bare, { now: NOW }).cells.slice(1, 6)).toEqual([
      '@daily',
      '<none>',
      'False',
      0,
      '<none>',
    ])
  })
})
