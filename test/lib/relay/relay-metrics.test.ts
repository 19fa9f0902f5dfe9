import { describe, expect, it } from 'vitest'
import { renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../../lib/metrics/registry.ts'
import {
  createRelayMetrics,
  RELAY_METRIC,
  resourceLabel,
} from '../../../lib/relay/relay-metrics.ts'
import type { WatchTarget } from '../../../lib/relay/watch-targets.ts'
import { parseExposition } from '../../helpers/exposition.ts'

const sample = (text: string, name: string, labels?: Record<string, string>) =>
  parseExposition(text).value(name, labels)

const M = RELAY_METRIC
const DEPLOYMENTS: WatchTarget = { group: 'apps', version: 'v1', resource: 'deployments' }
const CONFIGMAPS: WatchTarget = { group: '', version: 'v1', resource: 'configmaps' }

function setup() {
  const registry = new MetricsRegistry()
  const clock = { ms: 0 }
  const m = createRelayMetrics(registry, () => clock.ms)
  return { m, clock, page: () => renderPrometheus(registry.families.values()) }
}

describe('createRelayMetrics', () => {
  it('labels resources as resource.group, without any space', () => {
    expect(resourceLabel(DEPLOYMENTS)).toBe('deployments.apps')
    const inSpace: WatchTarget = { ...CONFIGMAPS, space: 'abc' }
    expect(resourceLabel(inSpace)).toBe('configmaps')
  })

  it('counts hook calls by step and outcome, keys by result, and their durations', async () => {
    const { m, clock, page } = setup()
    const ok = await m.flush('where', ['a', 'b'], async () => {
      clock.ms += 40
      return [{ key: 'a', ok: true }]
    })
    expect(ok).toEqual([{ key: 'a', ok: true }])
    await m.flush('translate', ['x', 'y', 'z'], async () => [
      { key: 'x', ok: false, outcome: 'error' },
      { key: 'y', ok: true },
      { key: 'z', ok: false },
    ])
    await m.flush('where', ['c'], async () => undefined)
    await expect(
      m.flush('where', ['d'], async () => {
        throw new Error('POST /hooks/where: HTTP 503')
      })
    ).rejects.toThrow('503')
    const t = page()
    expect(sample(t, M.hookCalls, { step: 'where', outcome: 'ok' })).toBe(2)
    expect(sample(t, M.hookCalls, { step: 'where', outcome: 'error' })).toBe(1)
    expect(sample(t, M.hookCalls, { step: 'translate', outcome: 'key-failures' })).toBe(1)
    expect(sample(t, M.hookKeys, { step: 'where', result: 'ok' })).toBe(3)
    expect(sample(t, M.hookKeys, { step: 'translate', result: 'ok' })).toBe(1)
    expect(sample(t, M.hookKeys, { step: 'translate', result: 'failed' })).toBe(2)
    expect(sample(t, `${M.hookDuration}_count`, { step: 'where' })).toBe(3)
    expect(sample(t, `${M.hookDuration}_sum`, { step: 'where' })).toBe(0.04)
  })

  it('is ready while the last hook call was answered, and not once stopping', async () => {
    const { m } = setup()
    expect(m.ready()).toEqual({ ok: true })
    await m
      .flush('mailbox', ['k'], async () => {
        throw new Error('fetch failed')
      })
      .catch(() => undefined)
    expect(m.ready()).toEqual({
      ok: false,
      reason: 'the last call of /hooks/mailbox failed: fetch failed',
    })
    await m.flush('mailbox', ['k'], async () => [{ key: 'k', ok: false }])
    expect(m.ready()).toEqual({ ok: true })
    m.stopping()
    expect(m.ready()).toEqual({ ok: false, reason: 'the relay is stopping' })
  })

  it('counts events, reconnections after the first watch, relists after the first list', () => {
    const { m, page } = setup()
    m.event(DEPLOYMENTS, 'ADDED')
    m.event(DEPLOYMENTS, 'ADDED')
    m.event(DEPLOYMENTS, 'DELETED')
    m.opened(CONFIGMAPS, true)
    m.listed(CONFIGMAPS, true)
    let t = page()
    expect(sample(t, M.events, { resource: 'deployments.apps', type: 'ADDED' })).toBe(2)
    expect(sample(t, M.events, { resource: 'deployments.apps', type: 'DELETED' })).toBe(1)
    expect(sample(t, M.watchRestarts, { resource: 'configmaps' })).toBe(0)
    expect(sample(t, M.relists, { resource: 'configmaps' })).toBe(0)
    m.opened(CONFIGMAPS, false)
    m.opened(CONFIGMAPS, false)
    m.listed(CONFIGMAPS, false)
    t = page()
    expect(sample(t, M.watchRestarts, { resource: 'configmaps' })).toBe(2)
    expect(sample(t, M.relists, { resource: 'configmaps' })).toBe(1)
  })

  it('sets the gauges at collect: watches, keys waiting per step, cursor lag per resource', () => {
    const { m, page } = setup()
    m.collect({
      watches: 7,
      pendingKeys: { where: 3, translate: 12 },
      cursors: [
        { target: DEPLOYMENTS, received: '120', saved: '100' },
        { target: { ...DEPLOYMENTS, space: 's1' }, received: '130', saved: '95' },
        { target: CONFIGMAPS, received: '50' },
        { target: { group: '', version: 'v1', resource: 'secrets' }, received: 'x1' },
      ],
    })
    let t = page()
    expect(sample(t, M.watches)).toBe(7)
    expect(sample(t, M.pendingKeys, { step: 'where' })).toBe(3)
    expect(sample(t, M.pendingKeys, { step: 'translate' })).toBe(12)
    expect(sample(t, M.cursorLag, { resource: 'deployments.apps' })).toBe(35)
    expect(sample(t, M.cursorLag, { resource: 'configmaps' })).toBe(50)
    expect(sample(t, M.cursorLag, { resource: 'secrets' })).toBeUndefined()
    m.collect({
      watches: 6,
      pendingKeys: {},
      cursors: [{ target: DEPLOYMENTS, received: '130', saved: '130' }],
    })
    t = page()
    expect(sample(t, M.pendingKeys, { step: 'where' })).toBe(0)
    expect(sample(t, M.pendingKeys, { step: 'translate' })).toBe(0)
    expect(sample(t, M.cursorLag, { resource: 'deployments.apps' })).toBe(0)
  })

  it('is live until a watch loop ends on its own', () => {
    const { m } = setup()
    expect(m.live()).toEqual({ ok: true })
    m.loopEnded(DEPLOYMENTS)
    expect(m.live()).toEqual({
      ok: false,
      reason: 'watch loops ended on their own: deployments.apps',
    })
  })
})
