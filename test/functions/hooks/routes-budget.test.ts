/**
 * A hook call fits one Worker invocation: 500 mailbox keys against dynalite, with the budget in
 * strict mode (an overrun would fail), run until the hook's share of the budget is used, and the
 * answer (200) lists the rest under `deferred`, in order; sending those again, as the relay does,
 * finishes every key exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import type { InvocationStats } from '../../../lib/budget/invocation.ts'
import { SHARES } from '../../../lib/budget/limits.ts'
import { mailboxName } from '../../../lib/reconcile/keys.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const ended: InvocationStats[] = []
const INV = '/clusters/root:imw-d/apis/edge.kcp.io/v1alpha1/synctargets'

beforeAll(async () => {
  hub = await createTestHub({ budget: { mode: 'strict', onEnd: (s) => ended.push(s) } })
  await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name: 'imw-d' },
  })
})
afterAll(() => hub.close())

describe('POST /hooks/<step> within the invocation budget', () => {
  // Heavy (about 1,000 store requests): given room on a busy machine; nothing here reads a clock.
  it('runs 500 keys over several calls, deferring what does not fit', async () => {
    const real: string[] = []
    for (const name of ['d1', 'd2', 'd3']) {
      const st = await hub.call('POST', INV, {
        apiVersion: 'edge.kcp.io/v1alpha1',
        kind: 'SyncTarget',
        metadata: { name },
      })
      real.push(mailboxOf(st.body)!)
    }
    const space = real[0]!.split('-mb-')[0]!
    const made = Array.from({ length: 497 }, () => mailboxName(space, crypto.randomUUID()))
    const keys = [...real, ...made]

    ended.length = 0
    const first = await hub.call('POST', '/hooks/mailbox', { keys })
    expect(first.status).toBe(200)
    const ran: string[] = first.body.results.map((r: { key: string }) => r.key)
    expect(first.body.deferred.length).toBeGreaterThan(0)
    expect([...ran, ...first.body.deferred]).toEqual(keys)
    const call = ended.find((s) => s.kind === 'hook:mailbox')!
    expect(call.subrequests).toBeGreaterThan(SHARES.hook * call.budget * 0.8)
    expect(call.subrequests).toBeLessThanOrEqual(call.budget)

    const outcomes = new Map<string, string>()
    for (const r of first.body.results) outcomes.set(r.key, r.outcome)
    let todo: string[] = first.body.deferred
    for (let calls = 1; todo.length > 0; calls++) {
      expect(calls).toBeLessThan(10)
      const next = await hub.call('POST', '/hooks/mailbox', { keys: todo })
      for (const r of next.body.results) {
        expect(outcomes.has(r.key)).toBe(false)
        outcomes.set(r.key, r.outcome)
      }
      todo = next.body.deferred
    }
    expect(outcomes.size).toBe(500)
    expect(real.map((k) => outcomes.get(k))).toEqual(['created', 'created', 'created'])
    expect(new Set(made.map((k) => outcomes.get(k)))).toEqual(new Set(['absent']))
    const hooks = ended.filter((s) => s.kind === 'hook:mailbox')
    expect(hooks.every((s) => s.subrequests <= s.budget && !s.exceeded)).toBe(true)
  }, 300_000)

  it('answers an empty deferred list when everything fits', async () => {
    const res = await hub.call('POST', '/hooks/mailbox', {
      keys: [mailboxName('x', crypto.randomUUID())],
    })
    expect(res.body).toMatchObject({ step: 'mailbox', deferred: [] })
    expect(res.body.results).toHaveLength(1)
  })
})
