/**
 * The simulator's own loop: started, it converges a new Deployment without anyone calling
 * `tick()`; idle, it only reads the store's resourceVersion (no lists) until something changes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNodeApp } from '../../../functions/node-server.ts'
import { bootstrapEdge } from '../../../lib/edge-sim/bootstrap.ts'
import { createSimulator, type Simulator } from '../../../lib/edge-sim/simulator.ts'
import { createHubClient, type HubClient } from '../../../lib/hub/client.ts'
import type { HubDeps } from '../../../lib/hub/deps.ts'
import { silentLogger } from '../../../lib/log.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { deployment, GVR, NODE } from './sim-fixture.ts'

let store: TestStore
let user: HubClient
let sim: Simulator
let lists = 0

beforeAll(async () => {
  store = await createTestStore()
  const { deps } = createNodeApp({
    objects: store.objects,
    kv: store.kv,
    log: silentLogger,
    defaults: true,
  })
  await bootstrapEdge(deps, { node: NODE })
  user = createHubClient(deps, { fieldManager: 'kubectl' })
  const counted: HubDeps = {
    ...deps,
    objects: {
      ...deps.objects,
      list: (o) => {
        lists++
        return deps.objects.list(o)
      },
    },
  }
  sim = createSimulator({
    deps: counted,
    node: NODE,
    periodMs: 20,
    resyncMs: 600_000,
    log: silentLogger,
  })
})
afterAll(async () => {
  await sim?.stop()
  await store?.close()
})

async function until(test: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 15_000; Date.now() < end; ) {
    if (await test()) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('condition not met in 15 s')
}

it('converges on its own and lists nothing while the store does not change', async () => {
  sim.start()
  await user.create('root', GVR.deployments, deployment('looped'))
  await until(async () => {
    const d = await user.get('root', GVR.deployments, 'looped', 'default')
    return (d?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 1
  })
  let before = -1
  await until(async () => {
    const quiet = lists === before
    before = lists
    await new Promise((r) => setTimeout(r, 200))
    return quiet && lists === before
  })
  const idle = lists
  await new Promise((r) => setTimeout(r, 300))
  expect(lists).toBe(idle)
  await user.create('root', GVR.deployments, deployment('woken'))
  await until(
    async () => (await user.list('root', GVR.pods, { namespace: 'default' })).length === 2
  )
  expect(lists).toBeGreaterThan(idle)
})
