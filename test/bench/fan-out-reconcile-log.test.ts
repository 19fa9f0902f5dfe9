import { describe, expect, it } from 'vitest'
import { createReconcileLog, parseReconcileLine } from '../../bench/fan-out-reconcile-log.ts'

describe('parseReconcileLine', () => {
  it('reads reconciled and failed runs, and nothing else', () => {
    const ok =
      '{"level":"info","msg":"reconciled","step":"translate","key":"k","outcome":"x","durationMs":12}'
    expect(parseReconcileLine(ok)).toEqual({
      step: 'translate',
      key: 'k',
      ok: true,
      outcome: 'x',
      durationMs: 12,
    })
    const failed =
      '{"level":"error","msg":"reconcile failed","step":"where","key":"k","error":{"name":"E","message":"boom"},"durationMs":3}'
    expect(parseReconcileLine(failed)).toMatchObject({ ok: false, outcome: 'boom', step: 'where' })
    expect(parseReconcileLine('{"msg":"terminated"}')).toBeUndefined()
    expect(parseReconcileLine('{"msg":"reconciled"}')).toBeUndefined()
    expect(parseReconcileLine('not json')).toBeUndefined()
  })
})

describe('createReconcileLog', () => {
  it('keeps the runs of its logger and passes warnings on', () => {
    const written: string[] = []
    const log = createReconcileLog((line) => written.push(line))
    const l = log.logger.child({ step: 'translate', key: 'mb-1' })
    l.info('reconciled', { outcome: 'unchanged', durationMs: 5 })
    l.info('something else')
    l.warn('reconcile failed', { error: new Error('conflict'), durationMs: 7 })
    expect(log.runs().map((r) => [r.key, r.ok, r.outcome, r.durationMs])).toEqual([
      ['mb-1', true, 'unchanged', 5],
      ['mb-1', false, 'conflict', 7],
    ])
    expect(written).toHaveLength(1)
    log.clear()
    expect(log.runs()).toEqual([])
  })
})
