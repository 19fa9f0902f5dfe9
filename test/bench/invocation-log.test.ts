/**
 * The per-kind summary of invocations: counts, subrequest and CPU spreads (CPU only over the
 * invocations that carry it), the most in flight and the overruns.
 */
import { describe, expect, it } from 'vitest'
import { createInvocationLog, summarizeByKind } from '../../bench/invocation-log.ts'
import type { InvocationStats } from '../../lib/budget/invocation.ts'

const inv = (kind: string, subrequests: number, over: Partial<InvocationStats> = {}) => ({
  kind,
  subrequests,
  ops: {},
  maxInFlight: 1,
  budget: 1000,
  exceeded: false,
  refused: 0,
  overInWrites: 0,
  wallMs: subrequests,
  ...over,
})

describe('summarizeByKind', () => {
  it('summarizes each kind apart', () => {
    const log = createInvocationLog()
    for (let i = 1; i <= 100; i++) log.record(inv('api', i))
    log.record(inv('hook:translate', 700, { cpuMs: 40, maxInFlight: 6 }))
    log.record(inv('hook:translate', 900, { cpuMs: 90, exceeded: false }))
    log.record(inv('cron', 1200, { exceeded: true, refused: 2, overInWrites: 1 }))
    log.record(inv('cron', 900, { refused: 3 }))
    const [api, cron, hook] = summarizeByKind(log.all())
    expect(api).toMatchObject({
      kind: 'api',
      invocations: 100,
      subrequests: { max: 100, p50: 50, p99: 99 },
      cpuMs: null,
      exceeded: 0,
    })
    expect(cron).toMatchObject({
      kind: 'cron',
      exceeded: 1,
      overInWrites: 1,
      refused: 5,
      subrequests: { max: 1200 },
    })
    expect(hook).toMatchObject({
      kind: 'hook:translate',
      invocations: 2,
      maxInFlight: 6,
      cpuMs: { max: 90, p50: 40, p99: 90, measured: 2 },
    })
    log.clear()
    expect(log.all()).toEqual([])
  })
})
