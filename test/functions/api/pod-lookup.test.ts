/**
 * kubectl's lookup of a workload's pods at the center (`kubectl logs deploy/shop`: a pods watch
 * with its selector, protobuf first, no bookmarks) is answered at once with the edges the
 * workload runs at, in the summarize tests' world (edges e1, e2 env=prod, e3 env=dev; namespace
 * `app` placed to env=prod). A watch that is not that lookup — a Table watch, an informer's, a
 * selector no workload has — is served as before; a workload placed nowhere is said to run nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, BASE } from '../../helpers/hub.ts'
import {
  createWorld,
  DEPLOY,
  deployment,
  NS,
  placeOneConfigMap,
  type World,
  WS,
} from '../reconcile-summarize/world.ts'

const PROTOBUF = 'application/vnd.kubernetes.protobuf,application/json'
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'
const PODS = `/clusters/${WS}/api/v1/namespaces/app/pods`
const SERVICES = { group: '', version: 'v1', resource: 'services' }

let w: World
beforeAll(async () => {
  w = await createWorld()
  await placeOneConfigMap(w, 'prod', [{ matchLabels: { env: 'prod' } }])
  await w.client.create(WS, DEPLOY, deployment('app', 'shop', 2))
  // a Deployment in a namespace nothing places
  await w.client.create(WS, NS, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'idle' },
  })
  await w.client.create(WS, DEPLOY, deployment('idle', 'lonely', 1))
  // a Service, whose selector is a plain label map (kubectl logs svc/front)
  await w.client.create(WS, SERVICES, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'front', namespace: 'app' },
    spec: { selector: { tier: 'front', app: 'web' }, ports: [{ port: 80 }] },
  })
})
afterAll(() => w.close())

const watch = (path: string, query: string, accept: string) =>
  w.hub.app.request(`${BASE}${path}?${query}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept },
  })

describe("kubectl's lookup of a workload's pods", () => {
  it('is answered at once with the edges and the command to ask one', async () => {
    const res = await watch(PODS, 'labelSelector=app%3Dshop&resourceVersion=1&watch=true', PROTOBUF)
    expect(res.status).toBe(400)
    const status = (await res.json()) as { reason: string; message: string }
    expect(status.reason).toBe('BadRequest')
    expect(status.message).toBe(
      'the pods of deployment shop are not in an edgeplane workspace: it holds desired state only and runs no containers. Deployment shop runs at the edges e1, e2: kubectl --context e1 -n app logs deployment/shop'
    )
  })

  it('finds a Service by its map selector, whatever the order of its requirements', async () => {
    const res = await watch(PODS, 'labelSelector=app%3Dweb%2Ctier%3Dfront&watch=true', PROTOBUF)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toMatch(
      /^the pods of service front are not in an edgeplane workspace: .* Service front runs at the edges e1, e2: /
    )
  })

  it('says so for a workload placed nowhere', async () => {
    const res = await watch(
      `/clusters/${WS}/api/v1/namespaces/idle/pods`,
      'labelSelector=app%3Dlonely&watch=true',
      PROTOBUF
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain(
      'Deployment lonely runs nowhere: no EdgePlacement of this workspace selects it.'
    )
  })

  it('leaves every other watch alone', async () => {
    for (const [query, accept] of [
      ['labelSelector=app%3Dshop&watch=true&timeoutSeconds=-1', TABLE],
      ['labelSelector=app%3Dshop&watch=true&allowWatchBookmarks=true&timeoutSeconds=-1', PROTOBUF],
      ['labelSelector=app%3Dother&watch=true&timeoutSeconds=-1', PROTOBUF],
    ] as const) {
      const res = await watch(PODS, query, accept)
      expect([query, res.status]).toEqual([query, 200])
      await res.body?.cancel()
    }
    const list = await w.hub.call('GET', `${PODS}?labelSelector=app%3Dshop`, undefined, {
      accept: PROTOBUF,
    })
    expect(list.status).toBe(200)
  })
})
