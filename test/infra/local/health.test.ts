import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { waitHealthy } from '../../../infra/local/health.ts'
import { pickFreePort } from '../../../infra/local/ports.ts'
import { INSTANCE_HEADER } from '../../../lib/instance-label.ts'

let server: Server | undefined

afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = undefined
})

async function serve(statusFor: (n: number) => number, label?: string): Promise<string> {
  let n = 0
  server = createServer((_req, res) => {
    res.statusCode = statusFor(n++)
    if (label !== undefined) res.setHeader(INSTANCE_HEADER, label)
    res.end()
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`
}

describe('waitHealthy', () => {
  it('waits through errors until 200', async () => {
    let calls = 0
    const url = await serve((n) => {
      calls = n + 1
      return n < 3 ? 503 : 200
    })
    await waitHealthy(url, { timeoutMs: 10_000, intervalMs: 10 })
    expect(calls).toBe(4)
  })

  it('gives up with the reason when told to', async () => {
    const url = `http://127.0.0.1:${await pickFreePort()}/healthz`
    let polls = 0
    const gaveUp = () => (++polls > 2 ? 'wrangler dev exited with code 1' : undefined)
    await expect(waitHealthy(url, { timeoutMs: 10_000, intervalMs: 10, gaveUp })).rejects.toThrow(
      'wrangler dev exited with code 1'
    )
  })

  it('times out naming the URL', async () => {
    const url = await serve(() => 500)
    await expect(waitHealthy(url, { timeoutMs: 100, intervalMs: 10 })).rejects.toThrow(
      `${url} did not answer 200`
    )
  })

  it('with an instance label, counts only an answer carrying that label', async () => {
    const other = await serve(() => 200, 'another-start')
    await expect(
      waitHealthy(other, { timeoutMs: 150, intervalMs: 10, instance: 'this-start' })
    ).rejects.toThrow(`${other} did not answer 200 as instance this-start`)
    await new Promise<void>((r) => server?.close(() => r()))
    const unlabelled = await serve(() => 200)
    await expect(
      waitHealthy(unlabelled, { timeoutMs: 150, intervalMs: 10, instance: 'this-start' })
    ).rejects.toThrow('did not answer 200 as instance this-start')
    await new Promise<void>((r) => server?.close(() => r()))
    const own = await serve(() => 200, 'this-start')
    await waitHealthy(own, { timeoutMs: 10_000, intervalMs: 10, instance: 'this-start' })
  })
})
