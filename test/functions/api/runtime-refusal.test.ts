/**
 * The refusal of what needs a running container at the center, in the summarize tests' world
 * (edges e1, e2 env=prod; namespace `app` placed to env=prod): a Pod's log names the edges its
 * EdgePlacements send it to (functions/api/object-edges.ts) and the command to ask the first; a
 * Pod that does not exist is a 404; other resources get the plain refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWorld, placeOneConfigMap, type World, WS } from '../reconcile-summarize/world.ts'

const PODS = `/clusters/${WS}/api/v1/namespaces/app/pods`

let w: World
beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.client.create(
    WS,
    { group: '', version: 'v1', resource: 'pods' },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'runner', namespace: 'app' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    }
  )
})
afterAll(() => w.close())

describe("a center Pod's log", () => {
  it('names the edges the Pod runs at', async () => {
    const res = await w.hub.call('GET', `${PODS}/runner/log`)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain(
      'Pod runner runs at the edges e1, e2: kubectl --context e1 -n app logs pod/runner'
    )
    const missing = await w.hub.call('GET', `${PODS}/nobody/log`)
    expect(missing.status).toBe(404)
  })

  it('is the plain refusal elsewhere than pods', async () => {
    const res = await w.hub.call('GET', `/clusters/${WS}/api/v1/namespaces/app/services/s/proxy`)
    expect(res.status).toBe(400)
    expect(res.body.message).toContain("Use the edge cluster's own API")
  })
})
