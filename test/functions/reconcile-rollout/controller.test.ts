/**
 * The rollout step as the Worker serves it: `POST /hooks/rollout` runs it for each key (through
 * app.request, admin only), a repeated delivery changes nothing, and the controller's listKeys
 * pages through every Rollout of every space (the resync's way to re-run those waiting on a
 * settle, soak or deadline).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildControllers } from '../../../functions/controllers.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let spaceId = ''
const ROS = '/clusters/root:rh/apis/edge.kcp.io/v1alpha1/rollouts'
const rollout = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name },
  spec: { namespaceSelector: { matchLabels: { app: 'x' } }, waves: [{ name: 'all' }] },
})

beforeAll(async () => {
  hub = await createTestHub()
  const ws = { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name: 'rh' } }
  const made = await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', ws)
  spaceId = made.body.spec.cluster
  for (const name of ['a', 'b', 'c'])
    expect((await hub.call('POST', ROS, rollout(name))).status).toBe(201)
})
afterAll(() => hub.close())

describe('the rollout step', () => {
  it('runs at /hooks/rollout for each key, and a repeated delivery is harmless', async () => {
    const key = `${spaceId}/a`
    const first = await hub.call('POST', '/hooks/rollout', { keys: [key, key] })
    expect(first.status).toBe(200)
    expect(first.body.results).toEqual([
      { key, ok: true, outcome: expect.stringContaining('revision 1 cut') },
    ])
    const s = (await hub.call('GET', `${ROS}/a`)).body.status
    expect(s).toMatchObject({ phase: 'Complete', revision: 1, completedRevision: 1 })
    const again = await hub.call('POST', '/hooks/rollout', { keys: [key] })
    expect(again.body.results[0].outcome).toBe('unchanged')
    const absent = await hub.call('POST', '/hooks/rollout', { keys: [`${spaceId}/none`] })
    expect(absent.body.results[0].outcome).toBe('absent')
    await hub.mintToken('user-r', ['root:rh'])
    const refused = await hub.call('POST', '/hooks/rollout', { keys: [key] }, { token: 'user-r' })
    expect(refused.status).toBe(403)
  })

  it('lists every Rollout as a key, in pages', async () => {
    const rollout = buildControllers(hub.deps).find((c) => c.name === 'rollout')
    if (!rollout) throw new Error('no rollout step')
    const first = await rollout.listKeys(undefined, 2)
    expect(first).toEqual({ keys: [`${spaceId}/a`, `${spaceId}/b`], next: `${spaceId}/b` })
    expect(await rollout.listKeys(first.next, 2)).toEqual({ keys: [`${spaceId}/c`] })
  })
})
