/**
 * `npm run bench`: the hub benchmark. Starts one in-memory dynalite in a child process and the hub
 * in this process (bench/stack.ts), then runs eight phases against them: the raw DynamoDB baseline, hub CRUD over
 * HTTP, DynamoDB requests per hub operation, watch delivery latency, the fan-out of one
 * EdgePlacement to many mailboxes (unless `--skip-fanout`), the edge API's idle polls and
 * propagation to many in-process agents (unless `--skip-edge`), and the Workers limits (unless
 * `--skip-limits`; the per-invocation table covers every phase), and the fair share of two user tokens (unless `--fair-watches 0`). Progress lines go to stderr; the
 * report and a final JSON line go to stdout. `--help` lists the flags. The whole run is bounded
 * by `--max-seconds`; past it the process exits 1. `--scale` runs the scale figures instead
 * (scale.ts), with a report and a last JSON line of their own (scale-report.ts).
 */
import { cpus, platform } from 'node:os'
import { registerToken } from '../lib/auth/tokens.ts'
import { parseArgs, USAGE } from './args.ts'
import { runEdge } from './edge.ts'
import type { EdgeResults } from './edge-types.ts'
import { runFairShare } from './fair-share.ts'
import { runFairShareNpmStart } from './fair-share-npm-start.ts'
import { runFanOut } from './fan-out.ts'
import type { FanOutResults } from './fan-out-types.ts'
import { createHubClient } from './hub-client.ts'
import { LIST_NAMESPACE, runHubCrud } from './hub-crud.ts'
import { summarizeByKind } from './invocation-log.ts'
import { type LimitsResults, runLimits } from './limits.ts'
import { runRawBaseline } from './raw-dynamo.ts'
import { type BenchResults, jsonSummary, renderReport } from './report.ts'
import { measureRequestCosts } from './request-costs.ts'
import { runScale } from './scale.ts'
import { renderScale, scaleJson } from './scale-report.ts'
import { BENCH_TOKEN, edgeDepsOf, startBenchStack } from './stack.ts'
import { measureWatchLatency, type WatchLatency } from './watch-latency.ts'

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2))
  if (parsed.kind === 'help') {
    process.stdout.write(USAGE)
    return 0
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`bench: ${parsed.message}\n\n${USAGE}`)
    return 2
  }
  const o = parsed.options
  const t0 = performance.now()
  const progress = (message: string) =>
    process.stderr.write(`[bench +${((performance.now() - t0) / 1000).toFixed(1)}s] ${message}\n`)
  const guard = setTimeout(() => {
    process.stderr.write(`bench: gave up after ${o.maxSeconds} s (--max-seconds)\n`)
    process.exit(1)
  }, o.maxSeconds * 1000)
  guard.unref()

  if (o.scale) {
    try {
      const scale = await runScale(o, progress)
      progress('done')
      process.stdout.write(`${renderScale(scale, o.pollIntervalMs)}\n`)
      const summary = scaleJson(scale, o.pollIntervalMs, performance.now() - t0)
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      return 0
    } finally {
      clearTimeout(guard)
    }
  }
  progress('starting dynalite and the hub')
  const stack = await startBenchStack()
  try {
    const hub = createHubClient(stack.hub.url, BENCH_TOKEN)
    const raw = await runRawBaseline(
      stack.rawClient,
      stack.rawTable,
      {
        ops: o.rawOps,
        concurrency: o.concurrency,
        itemBytes: o.itemBytes,
        listItems: o.objects,
        listOps: o.listOps,
        listLimit: o.listLimit,
      },
      progress
    )
    const crud = await runHubCrud(hub, o, progress)
    const requests = await measureRequestCosts(
      { hub, counter: stack.counter, settle: () => stack.hub.settle(), progress },
      {
        samples: o.costSamples,
        itemBytes: o.itemBytes,
        listNamespace: LIST_NAMESPACE,
        listSize: o.objects,
      }
    )
    const watch: WatchLatency[] = []
    for (const settleMs of o.watchSettleMs) {
      const served = await stack.startHub(settleMs)
      try {
        const client = createHubClient(served.hub.url, BENCH_TOKEN)
        watch.push(
          await measureWatchLatency(
            client,
            {
              namespace: `bench-watch-${watch.length}`,
              changes: o.watchChanges,
              intervalMs: o.watchIntervalMs,
              settleMs,
              itemBytes: o.itemBytes,
            },
            progress
          )
        )
      } finally {
        await served.close()
      }
    }
    let fanOut: FanOutResults | null = null
    if (!o.skipFanout) {
      fanOut = await runFanOut(
        {
          hub,
          counter: stack.counter,
          bodyWrites: stack.bodyWrites,
          reconciles: stack.reconciles,
          inspect: stack.inspect,
          storeCpuMs: stack.storeCpuMs,
          progress,
        },
        {
          targets: o.fanoutTargets,
          objects: o.fanoutObjects,
          itemBytes: o.itemBytes,
          concurrency: o.concurrency,
          batch: o.fanoutBatch,
          calls: o.fanoutCalls,
          rawPutPerSec: raw.putConcurrent.opsPerSec,
        }
      )
    }
    let edge: EdgeResults | null = null
    if (!o.skipEdge) {
      edge = await runEdge(edgeDepsOf(stack, progress), {
        agents: o.edgeAgents,
        pollIntervalMs: o.pollIntervalMs,
        holdSeconds: o.edgeHoldSeconds,
        agentsPerProcess: o.agentsPerProcess,
        changes: o.edgeChanges,
        idlePolls: o.edgeIdlePolls,
        costSamples: o.costSamples,
        coldCost: o.edgeColdCost,
        itemBytes: o.itemBytes,
        concurrency: o.concurrency,
        batch: o.fanoutBatch,
        calls: o.fanoutCalls,
        rawGetPerSec: raw.getConcurrent.opsPerSec,
      })
    }
    let limits: LimitsResults | null = null
    if (!o.skipLimits) {
      limits = await runLimits(
        stack,
        hub,
        {
          targets: o.limitsTargets,
          objects: 10,
          itemBytes: o.itemBytes,
          concurrency: o.concurrency,
          cronTicks: 3,
        },
        progress
      )
    }
    const fairOptions = {
      watches: o.fairWatches,
      writers: 8,
      durationMs: o.quick ? 4000 : 10_000,
      itemBytes: o.itemBytes,
    }
    const fairInProcess =
      o.fairWatches > 0
        ? await runFairShare(
            {
              hubUrl: stack.hub.url,
              admin: hub,
              async issue(name) {
                const token = `${name}-token`
                await registerToken(stack.store.kv, token, { name, kind: 'user', spaces: ['root'] })
                return token
              },
            },
            fairOptions,
            progress
          )
        : null
    const fairShare = fairInProcess && {
      inProcess: fairInProcess,
      npmStart: o.skipFairNpmStart ? null : await runFairShareNpmStart(fairOptions, progress),
    }
    const cpuList = cpus()
    const results: BenchResults = {
      config: { ...o },
      environment: {
        node: process.version,
        platform: `${platform()}-${process.arch}`,
        cpus: cpuList.length,
        cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      },
      raw,
      hub: crud,
      requests,
      watch,
      fanOut,
      edge,
      invocations: summarizeByKind(stack.invocations.all()),
      limits,
      fairShare,
      durationMs: performance.now() - t0,
    }
    progress('done')
    process.stdout.write(`${renderReport(results)}\n`)
    process.stdout.write(`${JSON.stringify(jsonSummary(results))}\n`)
    return 0
  } finally {
    await stack.close()
    clearTimeout(guard)
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (e: unknown) => {
    process.stderr.write(
      `bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`
    )
    process.exitCode = 1
  }
)
