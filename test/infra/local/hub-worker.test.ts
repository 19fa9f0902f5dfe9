import { beforeEach, describe, expect, it } from 'vitest'
import { hubUrlFor, startHubWorker } from '../../../infra/local/hub-worker.ts'
import { groupMembers } from '../../../infra/local/process-group.ts'
import type { WranglerProcess } from '../../../infra/local/wrangler-process.ts'
import { tempDir } from '../../helpers/temp-dir.ts'
import { hubWorkerOptions } from './hub-worker-options.ts'

let dir: string

beforeEach(async () => {
  dir = await tempDir('ep-hw-')
})

const options = (command: string[]) => hubWorkerOptions(dir, command)

describe('startHubWorker', () => {
  it('gives up on a failed build, stops wrangler and shows the log tail', async () => {
    let spawned: WranglerProcess | undefined
    const opts = await options([
      '-e',
      "console.log('Build failed with 2 errors: nope'); setInterval(() => {}, 1000)",
    ])
    await expect(startHubWorker({ ...opts, onSpawn: (w) => (spawned = w) })).rejects.toThrow(
      /could not build the Worker[\s\S]*Build failed with 2 errors: nope/
    )
    expect(spawned?.pid).toBeGreaterThan(0)
    expect(groupMembers(spawned?.pid ?? 0)).toEqual([])
  })

  it('gives up at the deadline when /healthz never answers', async () => {
    const opts = await options(['-e', 'setInterval(() => {}, 1000)'])
    await expect(startHubWorker({ ...opts, readyTimeoutMs: 300 })).rejects.toThrow(
      `${hubUrlFor(opts.port)}/healthz did not answer 200`
    )
  })

  it('hub URLs are https on loopback', () => {
    expect(hubUrlFor(8787)).toBe('https://127.0.0.1:8787')
  })
})
