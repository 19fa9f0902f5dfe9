/**
 * The watch relay's metrics and health, counted around its parts (infra/relay/relay.ts wires
 * them): `flush` wraps the hook calls (calls by step and outcome — ok, key-failures, error — keys
 * by result, durations), `event` counts the events and listed objects relayed per resource,
 * `opened` / `listed` count watch reconnections and relists after a watch's first, and `collect`
 * sets the gauges read at scrape time (running watches, keys waiting per step, and per resource
 * the cursor lag: how many revisions the saved cursor trails the last resourceVersion received,
 * 0 when caught up). Health: live while no watch loop has ended on its own (each runs until
 * stopped, so one that ended means a target is no longer watched: a restart restores it); ready
 * while the relay runs and its last hook call got an answer. Resource labels are `resource.group`
 * (the watched kinds, never a space), so the series stay few.
 */
import type { Check } from '../metrics/health-server.ts'
import type { MetricsRegistry } from '../metrics/registry.ts'
import type { KeyResult } from './batcher.ts'
import type { WatchTarget } from './watch-targets.ts'

export const RELAY_METRIC = {
  events: 'edgeplane_relay_events_total',
  hookCalls: 'edgeplane_relay_hook_calls_total',
  hookKeys: 'edgeplane_relay_hook_keys_total',
  hookDuration: 'edgeplane_relay_hook_duration_seconds',
  watchRestarts: 'edgeplane_relay_watch_restarts_total',
  relists: 'edgeplane_relay_relists_total',
  watches: 'edgeplane_relay_watches',
  pendingKeys: 'edgeplane_relay_pending_keys',
  cursorLag: 'edgeplane_relay_cursor_lag_revisions',
} as const

const HELP = {
  events: 'Watch events and relisted objects relayed, by resource and event type.',
  hookCalls: 'Calls of POST /hooks/<step>, by step and outcome (ok, key-failures, error).',
  hookKeys: 'Reconcile keys posted to the hooks, by step and result (ok, failed).',
  hookDuration: 'Duration of one hook call, seconds.',
  watchRestarts: 'Watches opened again after the first one (reconnections), by resource.',
  relists: 'Lists of a resource after its first (cursor expired), by resource.',
  watches: 'Watches running now.',
  pendingKeys: 'Reconcile keys waiting to be posted (queued or delayed for a retry), by step.',
  cursorLag: 'Revisions between the last resourceVersion received and the saved cursor.',
}

/** A watched resource as a label: `deployments.apps`, `configmaps` for the core group. */
export const resourceLabel = (t: Pick<WatchTarget, 'group' | 'resource'>) =>
  t.group ? `${t.resource}.${t.group}` : t.resource

export type RelayGauges = {
  watches: number
  /** Keys waiting per step (queued and delayed together). */
  pendingKeys: Record<string, number>
  /** Per watch: the last resourceVersion received and the one saved. */
  cursors: { target: WatchTarget; received?: string; saved?: string }[]
}

export type RelayMetrics = {
  flush<T extends KeyResult[] | undefined>(
    step: string,
    keys: string[],
    send: () => Promise<T>
  ): Promise<T>
  event(target: WatchTarget, type: string): void
  opened(target: WatchTarget, first: boolean): void
  listed(target: WatchTarget, first: boolean): void
  /** A watch loop ended without being stopped. */
  loopEnded(target: WatchTarget): void
  collect(g: RelayGauges): void
  live(): Check
  ready(): Check
  stopping(): void
}

export function createRelayMetrics(r: MetricsRegistry, now: () => number = Date.now) {
  const M = RELAY_METRIC
  const ended: string[] = []
  const steps = new Set<string>()
  let lastHook: Check = { ok: true }
  let stopped = false
  r.set(M.watches, HELP.watches, {}, 0)

  const metrics: RelayMetrics = {
    async flush(step, keys, send) {
      const started = now()
      const duration = () => (now() - started) / 1000
      try {
        const results = await send()
        const failed = results?.filter((k) => !k.ok).length ?? 0
        const outcome = failed > 0 ? 'key-failures' : 'ok'
        r.inc(M.hookCalls, HELP.hookCalls, { step, outcome })
        r.inc(M.hookKeys, HELP.hookKeys, { step, result: 'ok' }, keys.length - failed)
        if (failed) r.inc(M.hookKeys, HELP.hookKeys, { step, result: 'failed' }, failed)
        r.observe({ name: M.hookDuration, help: HELP.hookDuration }, { step }, duration())
        lastHook = { ok: true }
        return results
      } catch (e) {
        r.inc(M.hookCalls, HELP.hookCalls, { step, outcome: 'error' })
        r.observe({ name: M.hookDuration, help: HELP.hookDuration }, { step }, duration())
        const message = e instanceof Error ? e.message : String(e)
        lastHook = { ok: false, reason: `the last call of /hooks/${step} failed: ${message}` }
        throw e
      }
    },
    event(target, type) {
      r.inc(M.events, HELP.events, { resource: resourceLabel(target), type })
    },
    opened(target, first) {
      const resource = resourceLabel(target)
      r.inc(M.watchRestarts, HELP.watchRestarts, { resource }, first ? 0 : 1)
    },
    listed(target, first) {
      r.inc(M.relists, HELP.relists, { resource: resourceLabel(target) }, first ? 0 : 1)
    },
    loopEnded(target) {
      ended.push(resourceLabel(target))
    },
    collect(g) {
      r.set(M.watches, HELP.watches, {}, g.watches)
      for (const step of Object.keys(g.pendingKeys)) steps.add(step)
      for (const step of steps)
        r.set(M.pendingKeys, HELP.pendingKeys, { step }, g.pendingKeys[step] ?? 0)
      const lags = new Map<string, number>()
      for (const c of g.cursors) {
        const received = Number(c.received)
        const saved = Number(c.saved ?? 0)
        if (c.received === undefined || !Number.isFinite(received) || !Number.isFinite(saved))
          continue
        const resource = resourceLabel(c.target)
        lags.set(resource, Math.max(lags.get(resource) ?? 0, Math.max(0, received - saved)))
      }
      for (const [resource, lag] of lags) r.set(M.cursorLag, HELP.cursorLag, { resource }, lag)
    },
    live() {
      if (ended.length === 0) return { ok: true }
      return { ok: false, reason: `watch loops ended on their own: ${ended.join(', ')}` }
    },
    ready() {
      if (stopped) return { ok: false, reason: 'the relay is stopping' }
      return lastHook
    },
    stopping() {
      stopped = true
    },
  }
  return metrics
}
