import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { runFanOut } from './fan-out.ts'
import { createHubClient } from './hub-client.ts'
import { BENCH_TOKEN, startBenchStack } from './stack.ts'
const tally = new Map<string, number>()
let on = false
const orig = DynamoDBClient.prototype.send
DynamoDBClient.prototype.send = function (this: DynamoDBClient, cmd: any, ...rest: any[]) {
  const op = cmd.constructor.name.replace('Command', '')
  if (on && op !== 'PutItem') {
    const frames = (new Error().stack ?? '').split('\n').filter((l) => /\/(lib|functions)\//.test(l) && !/lib\/store\/(dynamo-client|attrs|batch-)/.test(l)).slice(0, 9).map((l) => l.trim().replace(/^at /, '').replace(/\(?file:\/\/\/work\/main\//, '').replace(/\)$/, ''))
    const k = `${op} <- ${frames.join(' <- ')}`
    tally.set(k, (tally.get(k) ?? 0) + 1)
  }
  return (orig as any).call(this, cmd, ...rest)
} as any
const stack = await startBenchStack()
const deps = { hub: createHubClient(stack.hub.url, BENCH_TOKEN), counter: stack.counter, bodyWrites: stack.bodyWrites, reconciles: stack.reconciles, inspect: stack.inspect, storeCpuMs: stack.storeCpuMs, progress: (m: string) => { if (m.startsWith('fan-out change: 1')) on = true } }
const r = await runFanOut(deps, { targets: 500, objects: 100, itemBytes: 1024, concurrency: 16, batch: 500, calls: 2, rawPutPerSec: 1 })
console.log('change', JSON.stringify(r.change.requests))
for (const [k, v] of [...tally].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v, k)
await stack.close()
