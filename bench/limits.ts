/**
 * Phase 7: Workers limits. With CPU accounting on (lib/budget/cpu-accounting.ts), it runs each
 * kind of invocation the platform limits at a modest scale, so the per-kind table (invocation-
 * log.ts) has CPU figures too: the hooks (an inventory of N SyncTargets: mailbox and translate
 * steps, then a workload of M ConfigMaps placed on all of them: where and translate again, 500
 * keys per call, so the hook defers what does not fit and the keys are sent again), an agent's
 * desired-state polls, a watch while writes flow, and cron ticks (functions/maintenance.ts, each
 * as one invocation). Then one watch on a hub with a small budget shows a watch ending by itself
 * before its budget, with a BOOKMARK.
 */
import { runMaintenance } from '../functions/maintenance.ts'
import { disableCpuAccounting, enableCpuAccounting } from '../lib/budget/cpu-accounting.ts'
import { currentInvocation, runInvocation } from '../lib/budget/frames.ts'
import type { InvocationStats } from '../lib/budget/invocation.ts'
import { SHARES } from '../lib/budget/limits.ts'
import { issueEdgeCredential } from '../lib/edge/credentials.ts'
import { currentEtag, pollUnchanged } from './edge-poll.ts'
import { driveHook, type HookRun } from './fan-out-hooks.ts'
import {
  configMapsPath,
  edgePath,
  namespacesPath,
  workspace,
  workspacesPath,
} from './fan-out-objects.ts'
import { setUpInventory, specCluster } from './fan-out-setup.ts'
import { createHubClient, type HubClient } from './hub-client.ts'
import { type WatchEnd, watchWhileWriting } from './limits-watch.ts'
import { configMap } from './payload.ts'
import type { BenchStack } from './stack.ts'

export type LimitsOptions = {
  targets: number
  objects: number
  itemBytes: number
  concurrency: number
  cronTicks: number
}

export type LimitsResults = {
  targets: number
  objects: number
  translate: HookRun
  budgetWatch: { budget: number; share: number; subrequests: number } & WatchEnd
}

const WL = 'bench-limits-wl'
const NS = 'lim'
const LABEL = { 'bench.edgeplane.dev/limits': 'yes' }
const ENV = 'limits'
const SMALL_BUDGET = 60

async function placeWorkload(hub: HubClient, opts: LimitsOptions): Promise<string> {
  const wl = specCluster(
    await hub.call('POST', workspacesPath('root'), { body: workspace(WL), expect: 201 })
  )
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: LABEL } }
  await hub.call('POST', namespacesPath(`root:${WL}`), { body: ns, expect: 201 })
  for (let i = 0; i < opts.objects; i++) {
    const body = configMap(NS, `cm-${i}`, opts.itemBytes, i)
    await hub.call('POST', configMapsPath(`root:${WL}`, NS), { body, expect: 201 })
  }
  const placement = {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind: 'EdgePlacement',
    metadata: { name: 'limits' },
    spec: {
      locationSelectors: [{ matchLabels: { env: ENV } }],
      namespaceSelector: { matchLabels: LABEL },
    },
  }
  await hub.call('POST', edgePath(`root:${WL}`, 'edgeplacements'), { body: placement, expect: 201 })
  return wl
}

async function cronTicks(stack: BenchStack, ticks: number): Promise<void> {
  const budget = { mode: 'degrade' as const, onEnd: stack.invocations.record }
  for (let i = 0; i < ticks; i++) {
    await runInvocation('cron', budget, () =>
      runMaintenance(stack.hub.deps, stack.store, { cron: '*/1 * * * *', baseUrl: '' })
    )
  }
}

async function budgetWatch(stack: BenchStack, token: string, itemBytes: number) {
  const own: InvocationStats[] = []
  const budget = {
    subrequests: SMALL_BUDGET,
    mode: 'strict' as const,
    onEnd: (s: InvocationStats) => own.push(s),
  }
  const served = await stack.startHub(0, budget)
  try {
    const client = createHubClient(served.hub.url, token)
    const target = { space: `root:${WL}`, namespace: NS, prefix: 'small', itemBytes }
    const end = await watchWhileWriting(client, target, {
      query: 'allowWatchBookmarks=true',
      everyMs: 100,
      maxMs: 120_000,
    })
    const watch = own.find((s) => s.kind === 'watch')
    const share = Math.floor(SMALL_BUDGET * SHARES.watch)
    return { budget: SMALL_BUDGET, share, subrequests: watch?.subrequests ?? Number.NaN, ...end }
  } finally {
    await served.close()
  }
}

export async function runLimits(
  stack: BenchStack,
  hub: HubClient,
  opts: LimitsOptions,
  progress: (message: string) => void
): Promise<LimitsResults> {
  enableCpuAccounting(() => currentInvocation())
  try {
    progress(`limits: ${opts.targets} SyncTargets and mailboxes (hooks, CPU accounted)`)
    const inv = await setUpInventory(
      { hub, inspect: stack.inspect, progress },
      {
        targets: opts.targets,
        concurrency: opts.concurrency,
        batch: 500,
        calls: 1,
        inventory: 'bench-limits-inv',
        env: ENV,
      }
    )
    progress(`limits: ${opts.objects} ConfigMaps placed on every mailbox (where, translate)`)
    const wl = await placeWorkload(hub, opts)
    await driveHook(hub, 'where', [`${wl}/limits`], { batch: 1, calls: 1 })
    const keys = inv.mailboxes.map((m) => m.key)
    const translate = await driveHook(hub, 'translate', keys, { batch: 500, calls: 1 })
    progress('limits: edge polls, a watch, cron ticks')
    const mailbox = keys[0]!
    const token = (await issueEdgeCredential(stack.hub.deps.kv, mailbox)).token
    const etag = await currentEtag(stack.hub.url, mailbox, token)
    for (let i = 0; i < 20; i++) await pollUnchanged(stack.hub.url, { mailbox, token, etag })
    const target = { space: `root:${WL}`, namespace: NS, prefix: 'w', itemBytes: opts.itemBytes }
    await watchWhileWriting(hub, target, { query: 'timeoutSeconds=3', everyMs: 100, maxMs: 30_000 })
    await cronTicks(stack, opts.cronTicks)
    progress(`limits: a watch on a hub with a budget of ${SMALL_BUDGET} subrequests`)
    const small = await budgetWatch(stack, hub.token, opts.itemBytes)
    return { targets: opts.targets, objects: opts.objects, translate, budgetWatch: small }
  } finally {
    disableCpuAccounting()
  }
}
