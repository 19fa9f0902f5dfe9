import { describe, expect, it } from 'vitest'
import { bellHandler, MAX_WAIT_MS } from '../../functions/mailbox-bell.ts'
import { inProcessBell } from '../../lib/edge/bell.ts'

const ring = (h: ReturnType<typeof bellHandler>, versions: [string, number][]) =>
  h(new Request('https://bell/ring', { method: 'POST', body: JSON.stringify({ versions }) }))
const wait = async (h: ReturnType<typeof bellHandler>, key: string, since: number, ms: number) => {
  const res = await h(new Request(`https://bell/wait?key=${key}&since=${since}&timeoutMs=${ms}`))
  return { status: res.status, body: (await res.json()) as { outcome?: string } }
}

describe('the bell Durable Object', () => {
  it('answers a wait when its key is rung above its version', async () => {
    const h = bellHandler({ startupMs: 0 })
    const held = wait(h, 'a', 3, 10_000)
    expect((await ring(h, [['a', 4]])).status).toBe(204)
    expect(await held).toEqual({ status: 200, body: { outcome: 'rung' } })
    expect((await wait(h, 'a', 3, 10_000)).body.outcome).toBe('rung')
    expect((await wait(h, 'a', 4, 10)).body.outcome).toBe('timeout')
  })

  it('just started, answers unknown once per key it has no memory of, then holds', async () => {
    let t = 1000
    const bell = inProcessBell()
    const h = bellHandler({ bell, now: () => t, startupMs: 10_000 })
    expect((await wait(h, 'a', 3, 10_000)).body.outcome).toBe('unknown')
    const held = wait(h, 'a', 3, 10_000)
    expect(bell.waiting()).toBe(1)
    await ring(h, [['b', 1]])
    expect((await wait(h, 'b', 0, 10_000)).body.outcome).toBe('rung')
    expect((await wait(h, 'b', 1, 5)).body.outcome).toBe('timeout')
    await ring(h, [['a', 5]])
    expect((await held).body.outcome).toBe('rung')
    t += 10_000
    expect((await wait(h, 'c', 0, 5)).body.outcome).toBe('timeout')
  })

  it('answers a wait on its also keys', async () => {
    const h = bellHandler({ startupMs: 0 })
    const held = h(new Request('https://bell/wait?key=a&since=3&timeoutMs=10000&also=shared%3Ax'))
    await ring(h, [['shared:x', 4]])
    expect(await (await held).json()).toEqual({ outcome: 'rung' })
  })

  it('refuses malformed rings and waits with a Status, and unknown paths', async () => {
    const h = bellHandler({ startupMs: 0 })
    const bad = await h(
      new Request('https://bell/ring', { method: 'POST', body: '{"versions":1}' })
    )
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { kind: string }).kind).toBe('Status')
    expect((await wait(h, 'a', -1, 5)).status).toBe(400)
    expect((await wait(h, 'a', 1, MAX_WAIT_MS + 1)).status).toBe(400)
    expect((await h(new Request('https://bell/wait', { method: 'DELETE' }))).status).toBe(405)
    expect((await h(new Request('https://bell/other'))).status).toBe(404)
  })
})
