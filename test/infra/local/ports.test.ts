import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { assertPortFree, isPortFree, pickFreePort } from '../../../infra/local/ports.ts'

let held: Server | undefined

afterEach(async () => {
  await new Promise<void>((r) => (held ? held.close(() => r()) : r()))
  held = undefined
})

function occupy(port: number): Promise<void> {
  held = createServer()
  return new Promise((resolve) => held?.listen(port, '127.0.0.1', () => resolve()))
}

describe('ports', () => {
  it('picks a port that can then be listened on', async () => {
    const port = await pickFreePort()
    expect(port).toBeGreaterThan(0)
    expect(await isPortFree(port)).toBe(true)
  })

  it('sees a port in use as not free and explains it', async () => {
    const port = await pickFreePort()
    await occupy(port)
    expect(await isPortFree(port)).toBe(false)
    await expect(assertPortFree(port)).rejects.toThrow(`127.0.0.1:${port} is already in use`)
  })

  it('accepts a free port', async () => {
    await expect(assertPortFree(await pickFreePort())).resolves.toBeUndefined()
  })
})
