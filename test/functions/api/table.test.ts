import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAccept } from '../../../functions/api/media-type.ts'
import {
  listTable,
  negotiateTable,
  objectTable,
  tableWatchEvents,
} from '../../../functions/api/table.ts'
import { type NodeHub, startNodeHub } from '../../../functions/node-server.ts'
import { createLocalHubCert } from '../../../infra/local/tls-cert.ts'
import { isApiError } from '../../../lib/errors.ts'
import { bootstrapHub } from '../../../lib/hub/bootstrap.ts'
import { builtinResource } from '../../../lib/kube/resource-info.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { type KubectlEnv, ok, runKubectl, startKubectl } from '../../e2e/helpers/kubectl.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

const KUBECTL_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'
const req = (accept: string | undefined, query = '') =>
  new Request(`http://hub.test/api/v1/configmaps${query}`, {
    headers: accept === undefined ? {} : { accept },
  })
const failure = (f: () => unknown) => {
  try {
    f()
  } catch (e) {
    return isApiError(e) ? { code: e.code, reason: e.reason } : e
  }
  return undefined
}

describe('negotiateTable', () => {
  it('picks the first acceptable clause, by q then order', () => {
    expect(negotiateTable(req(KUBECTL_ACCEPT))).toEqual({
      version: 'v1',
      includeObject: 'Metadata',
      center: true,
    })
    expect(negotiateTable(req(KUBECTL_ACCEPT), 'simulated-edge')).toEqual({
      version: 'v1',
      includeObject: 'Metadata',
    })
    const v1beta1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io'
    expect(negotiateTable(req(v1beta1))?.version).toBe('v1beta1')
    expect(negotiateTable(req(`application/json;q=0.5,${v1beta1};q=0.9`))?.version).toBe('v1beta1')
    expect(negotiateTable(req(`application/json,${v1beta1}`))).toBeUndefined()
    expect(parseAccept('a/b;q=0, c/d;x="y"')).toEqual([{ type: 'c/d', params: { x: 'y' }, q: 1 }])
  })

  it('serves plain JSON without a Table clause, and honours includeObject', () => {
    expect(negotiateTable(req(undefined))).toBeUndefined()
    expect(negotiateTable(req('*/*'))).toBeUndefined()
    expect(negotiateTable(req('application/yaml'))).toBeUndefined()
    expect(negotiateTable(req(KUBECTL_ACCEPT, '?includeObject=Object'))?.includeObject).toBe(
      'Object'
    )
    expect(negotiateTable(req(KUBECTL_ACCEPT, '?includeObject=None'))?.includeObject).toBe('None')
  })

  it('rejects transformations it cannot make and bad includeObject values', () => {
    expect(
      failure(() => negotiateTable(req('application/json;as=Table;v=v2;g=meta.k8s.io')))
    ).toEqual({
      code: 406,
      reason: 'NotAcceptable',
    })
    const partial = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'
    expect(failure(() => negotiateTable(req(partial)))).toEqual({
      code: 406,
      reason: 'NotAcceptable',
    })
    expect(failure(() => negotiateTable(req(`${partial},application/json`)))).toBeUndefined()
    expect(failure(() => negotiateTable(req(KUBECTL_ACCEPT, '?includeObject=All')))).toEqual({
      code: 400,
      reason: 'BadRequest',
    })
  })
})

const CM_INFO = builtinResource({
  group: '',
  versions: ['v1'],
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
})
const served = { info: CM_INFO, version: 'v1' }
const NOW = new Date('2025-01-01T01:00:00Z')
const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'n',
    resourceVersion: rv,
    creationTimestamp: '2025-01-01T00:55:00Z',
  },
  data: { a: '1', b: '2' },
})

describe('listTable, objectTable and tableWatchEvents', () => {
  it('renders lists with paging metadata and single objects with their resourceVersion', () => {
    const tr = { version: 'v1' as const, includeObject: 'Metadata' as const }
    const t = listTable(
      served,
      { items: [cm('a', '5')], resourceVersion: '9', continue: 'c', remainingItemCount: 3 },
      { ...tr, now: NOW }
    )
    expect(t.metadata).toEqual({ resourceVersion: '9', continue: 'c', remainingItemCount: 3 })
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Data', 'Age'])
    expect(t.rows[0]?.cells).toEqual(['a', 2, '5m'])
    const one = objectTable(served, cm('b', '7'), tr, NOW)
    expect(one.metadata).toEqual({ resourceVersion: '7' })
    expect(one.rows).toHaveLength(1)
  })

  it('sends column definitions with the first watch event only and passes errors through', () => {
    const next = tableWatchEvents(served, { version: 'v1', includeObject: 'None', now: () => NOW })
    const status = { type: 'ERROR', object: { kind: 'Status', code: 410 } }
    expect(next(status)).toBe(status)
    const bookmark = next({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: '4' } },
    }) as any
    expect(bookmark.object).toMatchObject({
      kind: 'Table',
      metadata: { resourceVersion: '4' },
      rows: [],
    })
    const first = next({ type: 'ADDED', object: cm('a', '5') }) as any
    const second = next({ type: 'DELETED', object: cm('a', '6') }) as any
    expect(first.object.columnDefinitions).toHaveLength(3)
    expect(first.object.rows[0].object).toBeUndefined()
    expect(second).toMatchObject({
      type: 'DELETED',
      object: { kind: 'Table', columnDefinitions: [] },
    })
    expect(second.object.metadata.resourceVersion).toBe('6')
    expect(next('not an event')).toBe('not an event')
  })
})

describe('Table over HTTP', () => {
  let hub: TestHub
  const CMS = '/clusters/root/api/v1/namespaces/t/configmaps'
  beforeAll(async () => {
    hub = await createTestHub()
    await hub.call('POST', '/clusters/root/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 't' },
    })
    await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'one', labels: { x: 'y' } },
      data: { k: 'v' },
    })
  })
  afterAll(() => hub.close())

  it('answers list and get with a Table when asked, and plain objects otherwise', async () => {
    const list = await hub.call('GET', CMS, undefined, { accept: KUBECTL_ACCEPT })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' })
    expect(list.body.rows[0].cells.slice(0, 2)).toEqual(['one', 1])
    expect(list.body.rows[0].object).toMatchObject({
      kind: 'PartialObjectMetadata',
      metadata: { name: 'one', namespace: 't', labels: { x: 'y' } },
    })
    const full = await hub.call('GET', `${CMS}?includeObject=Object`, undefined, {
      accept: KUBECTL_ACCEPT,
    })
    expect(full.body.rows[0].object).toMatchObject({ kind: 'ConfigMap', data: { k: 'v' } })
    const one = await hub.call('GET', `${CMS}/one`, undefined, { accept: KUBECTL_ACCEPT })
    expect(one.body.rows).toHaveLength(1)
    expect((await hub.call('GET', `${CMS}/one`)).body.kind).toBe('ConfigMap')
    const bad = await hub.call('GET', CMS, undefined, {
      accept: 'application/json;as=Table;v=v9;g=meta.k8s.io',
    })
    expect(bad.status).toBe(406)
  })

  it('streams watch events as one-row Tables', async () => {
    const ctrl = new AbortController()
    const res = await hub.app.request(`${BASE}${CMS}?watch=true`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: KUBECTL_ACCEPT },
      signal: ctrl.signal,
    })
    const reader = res.body!.getReader()
    let text = ''
    while (text.split('\n').length < 2)
      text += new TextDecoder().decode((await reader.read()).value)
    await reader.cancel()
    const event = JSON.parse(text.split('\n')[0] ?? '')
    expect(event.type).toBe('ADDED')
    expect(event.object.kind).toBe('Table')
    expect(event.object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Data',
      'Age',
    ])
    expect(event.object.rows[0].cells[0]).toBe('one')
  })
})

/**
 * A TLS front for the plain-HTTP node hub (kubectl sends no bearer token to an http:// server):
 * forwards every request, streaming both ways.
 */
async function startTlsFront(target: string): Promise<{ url: string; server: Server }> {
  const { certPem, keyPem } = createLocalHubCert()
  const server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers)
      r.pipe(res)
    })
    up.on('error', () => res.destroy())
    res.on('close', () => up.destroy())
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe('kubectl get against the hub', () => {
  let store: TestStore
  let hub: NodeHub
  let front: Server
  let dir: string
  let env: KubectlEnv
  const kubectl = async (...args: string[]) => ok(await runKubectl(env, args))
  const post = (path: string, body: unknown) =>
    fetch(`${hub.url}/clusters/root${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  beforeAll(async () => {
    store = await createTestStore()
    hub = await startNodeHub({ objects: store.objects, kv: store.kv })
    await bootstrapHub(hub.deps, { adminToken: ADMIN_TOKEN, baseUrl: hub.url })
    const tls = await startTlsFront(hub.url)
    front = tls.server
    dir = await mkdtemp(join(tmpdir(), 'edgeplane-table-'))
    env = { kubeconfig: join(dir, 'kubeconfig'), cacheDir: join(dir, 'cache') }
    await writeFile(
      env.kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'hub',
            cluster: { server: `${tls.url}/clusters/root`, 'insecure-skip-tls-verify': true },
          },
        ],
        users: [{ name: 'admin', user: { token: ADMIN_TOKEN } }],
        contexts: [{ name: 'hub', context: { cluster: 'hub', user: 'admin', namespace: 'demo' } }],
        'current-context': 'hub',
      })
    )
    await post('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'demo' },
    })
    await post('/apis/apps/v1/namespaces/demo/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
        },
      },
    })
    await post('/api/v1/namespaces/demo/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: {
        type: 'NodePort',
        clusterIP: '10.0.0.10',
        selector: { app: 'web' },
        ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }],
      },
    })
  })
  afterAll(async () => {
    front?.closeAllConnections()
    await new Promise((resolve) => front?.close(resolve))
    await hub?.close()
    await store?.close()
    await rm(dir, { recursive: true, force: true })
  })

  const rows = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/))

  it('prints server-side columns for deployments, wide services and namespaces', async () => {
    const deploy = rows(await kubectl('get', 'deploy'))
    expect(deploy[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'EDGES', 'AGE'])
    expect(deploy[1]?.slice(0, 5)).toEqual(['web', '0/3', '0', '0', '<none>'])
    const svc = rows(await kubectl('get', 'svc', '-o', 'wide'))
    expect(svc[0]).toEqual([
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
      'SELECTOR',
    ])
    expect(svc[1]).toEqual([
      'web',
      'NodePort',
      '10.0.0.10',
      '<none>',
      '80:30080/TCP',
      svc[1]?.[5],
      'app=web',
    ])
    const ns = rows(await kubectl('get', 'ns'))
    expect(ns[0]).toEqual(['NAME', 'STATUS', 'AGE'])
    expect(ns.find((r) => r[0] === 'demo')?.[1]).toBe('Active')
    expect(rows(await kubectl('get', 'deploy', 'web', '-o', 'wide'))[1]?.slice(6)).toEqual([
      'nginx',
      'nginx:1.27',
      'app=web',
    ])
  })

  it('keeps the columns through `get -w`, printing the header once', async () => {
    const watch = startKubectl(env, ['get', 'deploy', '-w'])
    try {
      await watch.waitFor((o) => o.includes('web'))
      await post('/apis/apps/v1/namespaces/demo/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'api' },
        spec: {
          selector: { matchLabels: { app: 'api' } },
          template: {
            metadata: { labels: { app: 'api' } },
            spec: { containers: [{ name: 'a', image: 'a:1' }] },
          },
        },
      })
      const out = rows(await watch.waitFor((o) => o.includes('api')))
      expect(out.filter((r) => r[0] === 'NAME')).toHaveLength(1)
      expect(out.find((r) => r[0] === 'api')?.slice(0, 4)).toEqual(['api', '0/1', '0', '0'])
    } finally {
      await watch.stop()
    }
  })
})
