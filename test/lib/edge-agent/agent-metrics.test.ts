/**
 * The agent's metrics around a center client and a poll: the center here is a small scripted
 * CenterClient (the wrapper only sees its answers), the page is rendered and read back.
 */
import { describe, expect, it } from 'vitest'
import { createPollHealth } from '../../../lib/edge-agent/agent-health.ts'
import { AGENT_METRIC, createAgentMetrics } from '../../../lib/edge-agent/agent-metrics.ts'
import type { CenterClient } from '../../../lib/edge-agent/center-client.ts'
import { type PollResult, pollResult } from '../../../lib/edge-agent/poll-result.ts'
import { renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../../lib/metrics/registry.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { parseExposition } from '../../helpers/exposition.ts'

const sample = (text: string, name: string, labels?: Record<string, string>) =>
  parseExposition(text).value(name, labels)

const M = AGENT_METRIC

function setup() {
  const registry = new MetricsRegistry()
  const clock = { ms: 1_700_000_000_000 }
  const health = createPollHealth({ intervalMs: 1000, now: () => clock.ms })
  let owned = 0
  const metrics = createAgentMetrics({
    registry,
    health,
    ownedCount: () => owned,
    now: () => clock.ms,
  })
  const page = () => renderPrometheus(registry.families.values())
  return { registry, clock, health, metrics, page, setOwned: (n: number) => (owned = n) }
}

describe('createAgentMetrics', () => {
  it('shows every series at 0 before the first poll', () => {
    const { page } = setup()
    const text = page()
    for (const code of ['200', '304', 'error']) expect(sample(text, M.polls, { code })).toBe(0)
    for (const result of ['sent', 'error']) expect(sample(text, M.reports, { result })).toBe(0)
    expect(sample(text, M.applies, { outcome: 'created' })).toBe(0)
    expect(sample(text, M.lastSuccess)).toBe(0)
    expect(sample(text, M.owned)).toBe(0)
  })

  it('counts desired-state answers 200 / 304 / error and reports sent or failed', async () => {
    const { metrics, page } = setup()
    const answers: (() => Awaited<ReturnType<CenterClient['getDesired']>>)[] = [
      () => ({ kind: 'desired', state: { mailbox: 'm', version: 1, entries: [] } as never }),
      () => ({ kind: 'unchanged' }),
      () => ({ kind: 'unchanged' }),
      () => {
        throw new RemoteError(0, 'GET desired: fetch failed')
      },
    ]
    let reportFails = false
    const center = metrics.center({
      getDesired: async () => (answers.shift() as () => never)(),
      postReport: async () => {
        if (reportFails) throw new RemoteError(503, 'POST reports: HTTP 503')
        return { kind: 'ReportResult', accepted: 1, rejected: [] }
      },
    })
    expect((await center.getDesired()).kind).toBe('desired')
    expect((await center.getDesired(1)).kind).toBe('unchanged')
    await center.getDesired(1)
    await expect(center.getDesired(1)).rejects.toThrow('fetch failed')
    await center.postReport({} as never)
    reportFails = true
    await expect(center.postReport({} as never)).rejects.toThrow('HTTP 503')
    const text = page()
    expect(sample(text, M.polls, { code: '200' })).toBe(1)
    expect(sample(text, M.polls, { code: '304' })).toBe(2)
    expect(sample(text, M.polls, { code: 'error' })).toBe(1)
    expect(sample(text, M.reports, { result: 'sent' })).toBe(1)
    expect(sample(text, M.reports, { result: 'error' })).toBe(1)
  })

  it('records each poll: outcome, applies, owned objects, last success, health', async () => {
    const { metrics, page, clock, health, setOwned } = setup()
    const next: PollResult[] = [
      pollResult({ outcome: 'applied', created: 3, updated: 1, unchanged: 2, problems: 1 }),
      pollResult({ outcome: 'offline', ok: false, unchanged: 5, error: 'ECONNREFUSED' }),
    ]
    const poll = metrics.poll(async () => {
      clock.ms += 250
      return next.shift() as PollResult
    })
    setOwned(4)
    await poll()
    const successAt = clock.ms / 1000
    expect(health.ready()).toEqual({ ok: true })
    clock.ms += 10_000
    await poll()
    expect(health.ready()).toEqual({
      ok: false,
      reason: 'the last poll failed (offline): ECONNREFUSED',
    })
    const text = page()
    expect(sample(text, M.pollResults, { outcome: 'applied' })).toBe(1)
    expect(sample(text, M.pollResults, { outcome: 'offline' })).toBe(1)
    expect(sample(text, M.pollResults, { outcome: 'failed' })).toBe(0)
    expect(sample(text, M.applies, { outcome: 'created' })).toBe(3)
    expect(sample(text, M.applies, { outcome: 'updated' })).toBe(1)
    expect(sample(text, M.applies, { outcome: 'unchanged' })).toBe(7)
    expect(sample(text, M.applies, { outcome: 'problem' })).toBe(1)
    expect(sample(text, M.applies, { outcome: 'pruned' })).toBe(0)
    expect(sample(text, M.owned)).toBe(4)
    expect(sample(text, M.lastSuccess)).toBe(successAt)
    expect(sample(text, `${M.pollDuration}_count`)).toBe(2)
    expect(sample(text, `${M.pollDuration}_sum`)).toBe(0.5)
  })

  it('counts a poll that throws as failed, tells the health and rethrows', async () => {
    const { metrics, page, health } = setup()
    const poll = metrics.poll(async () => {
      throw new Error('EACCES: state folder')
    })
    await expect(poll()).rejects.toThrow('EACCES')
    expect(sample(page(), M.pollResults, { outcome: 'failed' })).toBe(1)
    expect(health.ready()).toEqual({
      ok: false,
      reason: 'the last poll failed (failed): EACCES: state folder',
    })
  })
})
