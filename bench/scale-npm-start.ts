/**
 * The scale rows through `npm start`'s stack (npm-start-stack.ts: the Worker under wrangler dev,
 * the relay, dynalite; no agents: the mailboxes are the measure), so the figures hold for the path
 * users run:
 * - register: N SyncTargets and Locations written 16 at a time → every mailbox Workspace Ready;
 * - place: M ConfigMaps (~1 KB) in a workload space, then one EdgePlacement selecting every
 *   Location → every mailbox holds all M copies;
 * - change: one ConfigMap changed → every mailbox holds the change;
 * - then the dashboard's views, timed (dashboard-requests.ts).
 * Times come from watches opened from a list's resourceVersion taken before each timed write (a
 * Workspace watch in root:espw; a cross-space ConfigMap watch, which carries the mailboxes' copies
 * with their `kcp.io/cluster`), with the p50 over mailboxes beside the time of the last; then every
 * mailbox is listed to check it holds what the watch said. The Worker's log tells, per phase, how
 * many runs each reconcile step made and how many changed nothing (worker-log.ts), and /proc what
 * CPU each of the stack's processes spent in it (process-cpu.ts).
 */

import { type DashboardTiming, timeDashboard } from './dashboard-requests.ts'
import {
  edgePlacement,
  FAN_NAMESPACE,
  fanNamespace,
  location,
  PLACEMENT,
  syncTarget,
  targetName,
  workspace,
} from './fan-out-objects.ts'
import { runLoad } from './load.ts'
import { startNpmStack } from './npm-start-stack.ts'
import { configMap, filler } from './payload.ts'
import { type CpuByPart, cpuBetween, cpuOfTree } from './process-cpu.ts'
import { follow, type WatchEvent } from './scale-watch.ts'
import { percentile } from './stats.ts'
import { runsSince, type WorkerRuns } from './worker-log.ts'

export type NpmStartOptions = {
  edges: number
  objects: number
  itemBytes: number
  /** Writes in flight at once (16, as a platform team's script would). */
  concurrency: number
  /** Limit for each timed phase. */
  phaseTimeoutMs: number
}

/** `cpuMs`: CPU milliseconds the stack's processes spent in the phase, per part. */
export type TimedPhase = { allMs: number; p50Ms: number; runs: WorkerRuns; cpuMs: CpuByPart }

export type NpmStartScale = {
  edges: number
  objects: number
  register: TimedPhase & { writesMs: number }
  place: TimedPhase
  change: TimedPhase
  /** The dashboard's views once everything is placed (dashboard-requests.ts). */
  dashboard: DashboardTiming[]
}

const INV = 'scale-inv'
const WL = 'scale-wl'
const ESPW_WORKSPACES = '/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces'
const ALL_CONFIGMAPS = '/clusters/*/api/v1/configmaps'
const cmName = (i: number) => `cm-${i}`

type Listed = { metadata?: { resourceVersion?: string }; items?: WatchEvent['object'][] }

/** Per-mailbox completion times, from the start of a phase. */
function completions(total: number) {
  const at = new Map<string, number>()
  return {
    at,
    done: () => at.size >= total,
    finish(key: string, t0: number) {
      if (!at.has(key)) at.set(key, performance.now() - t0)
    },
    summary(): { allMs: number; p50Ms: number } {
      const sorted = [...at.values()].sort((a, b) => a - b)
      return { allMs: sorted[sorted.length - 1] ?? Number.NaN, p50Ms: percentile(sorted, 50) }
    },
  }
}

export async function runNpmStartScale(
  o: NpmStartOptions,
  progress: (message: string) => void
): Promise<NpmStartScale> {
  progress(`npm start: starting the stack for ${o.edges} edges`)
  const stack = await startNpmStack()
  try {
    const { hub, watcher } = stack
    const listRv = async (path: string) =>
      ((await hub.call(path, { query: { limit: '1' } })) as Listed).metadata?.resourceVersion ?? ''
    let logAt = (await runsSince(stack.wranglerLog, 0)).end
    let cpuAt = cpuOfTree(stack.pid)
    /** The Worker's runs and the stack's CPU since the last phase ended. */
    const phaseEnd = async () => {
      const { runs, end } = await runsSince(stack.wranglerLog, logAt)
      logAt = end
      const cpuNow = cpuOfTree(stack.pid)
      const cpuMs = cpuBetween(cpuAt, cpuNow)
      cpuAt = cpuNow
      return { runs, cpuMs }
    }

    // Register.
    await hub.call(`/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces`, {
      method: 'POST',
      body: workspace(INV),
    })
    const inv = `/clusters/root:${INV}/apis/edge.kcp.io/v1alpha1`
    const mailboxes = completions(o.edges)
    const clusters = new Map<string, string>()
    let rv = await listRv(ESPW_WORKSPACES)
    progress(`npm start: registering ${o.edges} SyncTargets and Locations (timed)`)
    cpuAt = cpuOfTree(stack.pid)
    let t0 = performance.now()
    const registered = follow(watcher, ESPW_WORKSPACES, {
      resourceVersion: rv,
      timeoutMs: o.phaseTimeoutMs,
      done: mailboxes.done,
      onEvent(e) {
        const name = e.object.metadata?.name ?? ''
        if (e.type === 'DELETED' || e.object.status?.phase !== 'Ready') return
        clusters.set(name, e.object.spec?.cluster ?? '')
        mailboxes.finish(name, t0)
      },
    })
    registered.catch(() => undefined)
    await runLoad({ count: o.edges, concurrency: o.concurrency }, async (i) => {
      const name = targetName(i, o.edges)
      await hub.call(`${inv}/synctargets`, { method: 'POST', body: syncTarget(name) })
      await hub.call(`${inv}/locations`, { method: 'POST', body: location(name) })
    })
    const writesMs = performance.now() - t0
    await registered
    const register = { ...mailboxes.summary(), writesMs, ...(await phaseEnd()) }
    progress(`npm start: ${o.edges} mailboxes ready in ${(register.allMs / 1000).toFixed(1)} s`)

    // Place.
    await hub.call(`/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces`, {
      method: 'POST',
      body: workspace(WL),
    })
    const wl = `/clusters/root:${WL}`
    await hub.call(`${wl}/api/v1/namespaces`, { method: 'POST', body: fanNamespace() })
    await runLoad({ count: o.objects, concurrency: o.concurrency }, (i) =>
      hub.call(`${wl}/api/v1/namespaces/${FAN_NAMESPACE}/configmaps`, {
        method: 'POST',
        body: configMap(FAN_NAMESPACE, cmName(i), o.itemBytes, i),
      })
    )
    const ids = new Map([...clusters].map(([name, id]) => [id, name]))
    const held = new Map<string, Set<string>>()
    const placed = completions(o.edges)
    rv = await listRv(ALL_CONFIGMAPS)
    progress(`npm start: ${o.objects} ConfigMaps placed to ${o.edges} mailboxes (timed)`)
    cpuAt = cpuOfTree(stack.pid)
    t0 = performance.now()
    const placing = follow(watcher, ALL_CONFIGMAPS, {
      resourceVersion: rv,
      timeoutMs: o.phaseTimeoutMs,
      done: placed.done,
      onEvent(e) {
        const id = e.object.metadata?.annotations?.['kcp.io/cluster'] ?? ''
        if (!ids.has(id) || e.type === 'DELETED') return
        const names = held.get(id) ?? new Set()
        names.add(e.object.metadata?.name ?? '')
        held.set(id, names)
        if (names.size >= o.objects) placed.finish(id, t0)
      },
    })
    placing.catch(() => undefined)
    await hub.call(`${wl}/apis/edge.kcp.io/v1alpha1/edgeplacements`, {
      method: 'POST',
      body: edgePlacement(),
    })
    await placing
    const place = { ...placed.summary(), ...(await phaseEnd()) }
    progress(`npm start: placed everywhere in ${(place.allMs / 1000).toFixed(1)} s`)

    // Change.
    const payload = filler(Math.max(1, o.itemBytes - 200), 7919)
    const changed = completions(o.edges)
    rv = await listRv(ALL_CONFIGMAPS)
    progress(`npm start: one ConfigMap changed in ${o.edges} mailboxes (timed)`)
    cpuAt = cpuOfTree(stack.pid)
    t0 = performance.now()
    const changing = follow(watcher, ALL_CONFIGMAPS, {
      resourceVersion: rv,
      timeoutMs: o.phaseTimeoutMs,
      done: changed.done,
      onEvent(e) {
        const id = e.object.metadata?.annotations?.['kcp.io/cluster'] ?? ''
        if (!ids.has(id) || e.object.metadata?.name !== cmName(0)) return
        if (e.object.data?.payload === payload) changed.finish(id, t0)
      },
    })
    changing.catch(() => undefined)
    await hub.call(`${wl}/api/v1/namespaces/${FAN_NAMESPACE}/configmaps/${cmName(0)}`, {
      method: 'PATCH',
      body: { data: { payload } },
      contentType: 'application/merge-patch+json',
    })
    await changing
    const change = { ...changed.summary(), ...(await phaseEnd()) }
    progress(`npm start: changed everywhere in ${(change.allMs / 1000).toFixed(1)} s`)

    await checkMailboxes(hub, [...clusters.keys()], { objects: o.objects, payload })
    progress(`npm start: the dashboard's views over ${o.edges} edges`)
    const dashboard = await timeDashboard(hub, {
      token: stack.token,
      space: `root:${WL}`,
      placement: PLACEMENT,
      edges: o.edges,
    })
    return { edges: o.edges, objects: o.objects, register, place, change, dashboard }
  } finally {
    await stack.stop()
  }
}

/** Every mailbox, listed: all the ConfigMaps, the changed one with its new data. */
async function checkMailboxes(
  hub: Awaited<ReturnType<typeof startNpmStack>>['hub'],
  names: readonly string[],
  want: { objects: number; payload: string }
): Promise<void> {
  await runLoad({ count: names.length, concurrency: 8 }, async (i) => {
    const path = `/clusters/root:espw:${names[i]}/api/v1/namespaces/${FAN_NAMESPACE}/configmaps`
    const items = ((await hub.call(path)) as Listed).items ?? []
    const live = items.filter(
      (c) => !(c.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp
    )
    if (live.length !== want.objects)
      throw new Error(`mailbox ${names[i]}: ${live.length} ConfigMaps, not ${want.objects}`)
    const first = live.find((c) => c.metadata?.name === cmName(0))
    if (first?.data?.payload !== want.payload)
      throw new Error(`mailbox ${names[i]}: ${cmName(0)} lacks the change`)
  })
}
