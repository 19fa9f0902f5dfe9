/**
 * Held polls answered by the real translate step on an in-process hub (four edges whose mailboxes
 * share one shared manifest, test/functions/reconcile-translate/rollout-world.ts): a source change
 * translated for one edge's key only answers the held polls of the other edges too, since their
 * mailboxes moved with the shared manifest that run wrote; and a held poll is answered when its
 * own mailbox is translated.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../lib/log.ts'
import { runKeys } from '../../../lib/reconcile/run.ts'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import {
  controllers,
  converge,
  type Edge,
  hub,
  keyOf,
  setConfigMap,
  setUpWorld,
  shareOf,
} from '../reconcile-translate/rollout-world.ts'

beforeAll(async () => {
  await setUpWorld()
  await converge()
})

const desired = async (edge: Edge) => `/edge/v1/mailboxes/${await keyOf(edge)}/desired`
const headers = (more: Record<string, string> = {}) => ({
  authorization: `Bearer ${ADMIN_TOKEN}`,
  ...more,
})

/** Starts a held poll of `edge`'s mailbox naming its current version; `answer`: its status. */
async function hold(
  edge: Edge
): Promise<{ answer: Promise<{ status: number; applied: string | null }> }> {
  const path = await desired(edge)
  const etag = (await hub.app.request(`${BASE}${path}`, { headers: headers() })).headers.get('etag')
  const res = Promise.resolve(
    hub.app.request(`${BASE}${path}`, {
      headers: headers({ 'if-none-match': etag ?? '', prefer: 'wait=30' }),
    })
  )
  // Until the route waits on the bell (the answer would otherwise race the translate run).
  await new Promise((r) => setTimeout(r, 200))
  return {
    answer: res.then((r) => ({ status: r.status, applied: r.headers.get('preference-applied') })),
  }
}

const translate = async (edges: Edge[]) => {
  const step = controllers.find((c) => c.name === 'translate')
  if (!step) throw new Error('no translate step')
  const keys = await Promise.all(edges.map(keyOf))
  for (const r of await runKeys(step, keys, silentLogger)) expect(r.ok).toBe(true)
}

describe('held polls and the translate step', () => {
  it('answers every member of a shared manifest when one member’s run writes it', async () => {
    expect(await shareOf('c1')).toBeDefined()
    expect(await shareOf('r2')).toBe(await shareOf('c1'))
    const held = await Promise.all((['c1', 'c2', 'r2'] as const).map((e) => hold(e)))
    const answers = Promise.all(held.map((h) => h.answer))
    await setConfigMap('a', '2')
    await translate(['r1'])
    expect(await answers).toEqual([
      { status: 200, applied: 'wait=30' },
      { status: 200, applied: 'wait=30' },
      { status: 200, applied: 'wait=30' },
    ])
    await converge()
  })

  it('answers a held poll when its own mailbox is translated', async () => {
    const held = await hold('c2')
    await setConfigMap('a', '3')
    await translate(['c2'])
    expect(await held.answer).toEqual({ status: 200, applied: 'wait=30' })
  })
})
