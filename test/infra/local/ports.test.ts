import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  assertPortFree,
  ephemeralRange,
  isPortFree,
  pickFreePort,
} from '../../../infra/local/ports.ts'

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

  it("picks below the kernel's ephemeral range, skipping a port in use", async () => {
    // the first random draw lands on a port held here, the second elsewhere
    const first = 20_000 + Math.floor(0.25 * (32_767 - 20_000 + 1))
    await occupy(first)
    const draws = [0.25, 0.5]
    const port = await pickFreePort('127.0.0.1', {
      range: [32_768, 60_999],
      random: () => draws.shift() ?? 0.75,
    })
    expect(port).toBe(20_000 + Math.floor(0.5 * (32_767 - 20_000 + 1)))
    expect(await isPortFree(port)).toBe(true)
  })

  it('never hands out a port twice in one process, though it is still free', async () => {
    const opts = { range: [32_768, 60_999] as [number, number], random: () => 0.9 }
    const a = await pickFreePort('127.0.0.1', opts)
    const b = await pickFreePort('127.0.0.1', opts)
    expect(a).toBe(20_000 + Math.floor(0.9 * (32_767 - 20_000 + 1)))
    expect(b).not.toBe(a)
  })

  it('lets the OS pick when no range is known or the gap below it is too narrow', async () => {
    for (const range of [undefined, [20_500, 60_999] as [number, number]]) {
      const port = await pickFreePort('127.0.0.1', { range, random: () => 0 })
      expect(port).toBeGreaterThan(0)
      expect(port).not.toBe(20_000)
    }
  })

  it('reads the range the kernel states, and nothing from a file that says nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ports-'))
    try {
      await writeFile(join(dir, 'range'), '32768\t60999\n')
      expect(await ephemeralRange(join(dir, 'range'))).toEqual([32_768, 60_999])
      await writeFile(join(dir, 'range'), 'junk\n')
      expect(await ephemeralRange(join(dir, 'range'))).toBeUndefined()
      expect(await ephemeralRange(join(dir, 'missing'))).toBeUndefined()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('accepts a free port', async () => {
    await expect(assertPortFree(await pickFreePort())).resolves.toBeUndefined()
  })
})
