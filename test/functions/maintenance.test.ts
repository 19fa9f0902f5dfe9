/**
 * The cron as Worker invocations (strict budgets, so an overrun fails): a change-log sweep over
 * a table bigger than one Scan page finishes over several ticks, its cursor kept in the key-value
 * store between them; and a namespace too big to empty within one invocation stops its content
 * removal at the ceiling (the DELETE request's background work), stays Terminating, and the ticks
 * finish it, each within its budget.
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb'
import { afterEach, describe, expect, it } from 'vitest'
import { runMaintenance } from '../../functions/maintenance.ts'
import { MAINTENANCE_NS } from '../../functions/maintenance-terminations.ts'
import { runInvocation } from '../../lib/budget/frames.ts'
import type { InvocationStats } from '../../lib/budget/invocation.ts'
import { logPk } from '../../lib/store/keys.ts'
import { createTestHub, type TestHub } from '../helpers/hub.ts'
import { EXPIRED_ENTRIES, writeExpiredEntries } from '../lib/store/expired-entries.ts'

let hub: TestHub | undefined
afterEach(async () => {
  await hub?.close()
  hub = undefined
})

const BUDGET = 300

/** One cron run as its own invocation; returns its figures. */
async function tick(h: TestHub): Promise<InvocationStats> {
  let stats: InvocationStats | undefined
  await runInvocation(
    'cron',
    { subrequests: BUDGET, mode: 'strict', onEnd: (s) => (stats = s) },
    () => runMaintenance(h.deps, h.store, { cron: '* * * * *', baseUrl: '' })
  )
  return stats!
}

async function entriesLeft(h: TestHub): Promise<number> {
  let left = 0
  for (let c = 0; c < 7; c++) {
    const out = await h.store.client.send(
      new QueryCommand({
        TableName: h.store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: logPk(`c${c}`, '', 'configmaps') } },
        Select: 'COUNT',
      })
    )
    left += out.Count ?? 0
  }
  return left
}

describe('the cron within its invocation budget', () => {
  it('sweeps a table bigger than one page over several ticks, resuming at its cursor', async () => {
    hub = await createTestHub()
    await writeExpiredEntries(hub.store)
    const ticks: InvocationStats[] = []
    const cursors: unknown[] = []
    while ((await entriesLeft(hub)) > 0 && ticks.length < 10) {
      ticks.push(await tick(hub))
      cursors.push((await hub.deps.kv.get(MAINTENANCE_NS, 'change-log'))?.value)
    }
    expect(await entriesLeft(hub)).toBe(0)
    expect(ticks.length).toBeGreaterThanOrEqual(3)
    expect(cursors.slice(0, -1).every((c) => (c as { cursor?: unknown }).cursor)).toBe(true)
    for (const t of ticks) expect(t.subrequests).toBeLessThanOrEqual(BUDGET)
    expect(ticks.reduce((n, t) => n + (t.ops.BatchWriteItem ?? 0), 0)).toBeGreaterThanOrEqual(
      EXPIRED_ENTRIES / 25
    )
  })

  it('finishes a namespace too big for one invocation over several ticks', async () => {
    hub = await createTestHub({ budget: { subrequests: BUDGET, mode: 'strict' } })
    const NS = '/clusters/root/api/v1/namespaces'
    await hub.call('POST', NS, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'big' } })
    for (let i = 0; i < 120; i++) {
      const made = await hub.call('POST', `${NS}/big/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `c${i}` },
      })
      expect(made.status).toBe(201)
    }
    expect((await hub.call('DELETE', `${NS}/big`)).status).toBe(200)
    await hub.settle()
    const left = async () => (await hub!.call('GET', `${NS}/big/configmaps`)).body.items.length
    const afterDelete = await left()
    expect(afterDelete).toBeGreaterThan(0)
    expect(afterDelete).toBeLessThan(120)
    let ticks = 0
    while ((await hub.call('GET', `${NS}/big`)).status !== 404 && ticks < 20) {
      const stats = await tick(hub)
      expect(stats.subrequests).toBeLessThanOrEqual(BUDGET)
      ticks++
    }
    expect((await hub.call('GET', `${NS}/big`)).status).toBe(404)
    expect(ticks).toBeGreaterThanOrEqual(2)
  })
})

describe('the cron and the Rollouts', () => {
  it('re-runs a Rollout waiting on its settle, within the invocation budget', async () => {
    hub = await createTestHub()
    let nowMs = Date.parse('2026-12-03T10:00:00Z')
    hub.deps.now = () => new Date(nowMs)
    const ROS = '/clusters/root/apis/edge.kcp.io/v1alpha1/rollouts'
    const CMS = '/clusters/root/api/v1/namespaces/default/configmaps'
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }
    expect((await hub.call('POST', CMS, cm)).status).toBe(201)
    const spec = { namespaceSelector: {}, waves: [{ name: 'all' }] }
    const rollout = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'r' },
      spec,
    }
    expect((await hub.call('POST', ROS, rollout)).status).toBe(201)
    const status = async () => (await hub!.call('GET', `${ROS}/r`)).body.status
    const cronBudget = 1_000
    const run = async () => {
      let stats: InvocationStats | undefined
      await runInvocation(
        'cron',
        { subrequests: cronBudget, mode: 'strict', onEnd: (s) => (stats = s) },
        () => runMaintenance(hub!.deps, hub!.store, { cron: '* * * * *', baseUrl: '' })
      )
      expect(stats!.subrequests).toBeLessThanOrEqual(cronBudget)
    }
    await run()
    expect(await status()).toMatchObject({ revision: 1, completedRevision: 1, phase: 'Complete' })
    await hub.call('PUT', `${CMS}/c`, { ...cm, data: { a: '2' } })
    await run()
    expect((await status()).revision).toBe(1)
    nowMs += 5_000
    await run()
    expect((await status()).revision).toBe(2)
  })
})
