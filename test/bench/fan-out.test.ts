/**
 * The fan-out phase end to end on a small scale, against the benchmark's own stack (dynalite and
 * the hub over HTTP): it must complete (runFanOut checks every manifest itself and throws
 * otherwise), write each distinct body once, and count the hub's requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runFanOut } from '../../bench/fan-out.ts'
import type { FanOutResults } from '../../bench/fan-out-types.ts'
import { createHubClient } from '../../bench/hub-client.ts'
import { BENCH_TOKEN, type BenchStack, startBenchStack } from '../../bench/stack.ts'

let stack: BenchStack
let result: FanOutResults

beforeAll(async () => {
  stack = await startBenchStack()
  result = await runFanOut(
    {
      hub: createHubClient(stack.hub.url, BENCH_TOKEN),
      counter: stack.counter,
      bodyWrites: stack.bodyWrites,
      reconciles: stack.reconciles,
      inspect: stack.inspect,
      storeCpuMs: stack.storeCpuMs,
      progress: () => {},
    },
    {
      targets: 3,
      objects: 2,
      itemBytes: 300,
      concurrency: 4,
      batch: 2,
      calls: 2,
      rawPutPerSec: 100,
    }
  )
}, 60_000)

afterAll(async () => {
  await stack?.close()
})

describe('runFanOut', () => {
  it('fills every mailbox in one round, writing each new body once', () => {
    const { initial } = result
    expect(initial.rounds).toBe(1)
    // Two ConfigMaps, their Namespace and the SyncerConfig that now names it.
    expect(initial.bodies.stored).toBe(4)
    expect(initial.bodies.attempted).toBeGreaterThanOrEqual(4)
    expect(initial.translateCalls).toBe(2)
    expect(initial.translateKeyMs.count).toBe(3)
    expect(initial.whereKeyMs.count).toBe(1)
    expect(initial.requests.PutItem).toBeGreaterThan(3)
    expect(initial.requestsTotal).toBe(
      Object.values(initial.requests).reduce((sum, x) => sum + x, 0)
    )
  })

  it('sends a changed ConfigMap as one new body', () => {
    expect(result.change.rounds).toBe(1)
    expect(result.change.bodies.stored).toBe(1)
    expect(result.change.translateKeyMs.count).toBe(3)
  })

  it('reports what it was asked to do', () => {
    expect(result).toMatchObject({ targets: 3, objects: 2, batch: 2, calls: 2, rawPutPerSec: 100 })
  })
})
