/**
 * kube-rest.ts against a small HTTP server playing an older API server without aggregated
 * discovery (the in-process hub used elsewhere serves the aggregated kind): the legacy discovery
 * walk, preferred versions, subresources left out, the kubeconfig's token on every request, 404
 * as undefined and other failures as RemoteErrors with code and reason.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKubeRest } from '../../../lib/edge-agent/kube-rest.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'

const docs: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      { name: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['get', 'list'] },
      { name: 'pods/status', kind: 'Pod', namespaced: true, verbs: ['get'] },
    ],
  },
  '/apis': {
    kind: 'APIGroupList',
    groups: [
      {
        name: 'autoscaling',
        versions: [
          { groupVersion: 'autoscaling/v2', version: 'v2' },
          { groupVersion: 'autoscaling/v1', version: 'v1' },
        ],
        preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
      },
    ],
  },
  '/apis/autoscaling/v2': {
    groupVersion: 'autoscaling/v2',
    resources: [
      {
        name: 'horizontalpodautoscalers',
        kind: 'HorizontalPodAutoscaler',
        namespaced: true,
        verbs: ['list'],
      },
    ],
  },
  '/apis/autoscaling/v1': {
    groupVersion: 'autoscaling/v1',
    resources: [
      {
        name: 'horizontalpodautoscalers',
        kind: 'HorizontalPodAutoscaler',
        namespaced: true,
        verbs: ['list'],
      },
    ],
  },
}

const auth: string[] = []
let url = ''
const server = createServer((req, res) => {
  auth.push(req.headers.authorization ?? '')
  const path = new URL(req.url ?? '/', 'http://x').pathname
  if (path === '/api/v1/namespaces/a/configmaps/forbidden') {
    res.writeHead(403, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'nope' }))
    return
  }
  const doc = docs[path]
  res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' })
  res.end(JSON.stringify(doc ?? { kind: 'Status', reason: 'NotFound' }))
})
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()))
})

function kube() {
  const kc = new KubeConfig()
  kc.loadFromClusterAndUser(
    { name: 'old', server: url, skipTLSVerify: true },
    { name: 'u', token: 'sekret' }
  )
  return createKubeRest({ kubeConfig: kc })
}

describe('createKubeRest', () => {
  it('walks legacy discovery when the aggregated kind is not offered', async () => {
    const found = await kube().discover()
    expect(
      found.map((r) => `${r.group}/${r.version}/${r.resource}:${r.preferred}:${r.kind}`)
    ).toEqual([
      '/v1/configmaps:true:ConfigMap',
      'autoscaling/v2/horizontalpodautoscalers:true:HorizontalPodAutoscaler',
      'autoscaling/v1/horizontalpodautoscalers:false:HorizontalPodAutoscaler',
    ])
    expect(new Set(auth)).toEqual(new Set(['Bearer sekret']))
  })

  it('answers undefined for 404 and a RemoteError otherwise', async () => {
    const k = kube()
    const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: 'a', name: 'none' }
    expect(await k.get(ref)).toBeUndefined()
    const err = await k.get({ ...ref, name: 'forbidden' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RemoteError)
    expect(err).toMatchObject({ code: 403, reason: 'Forbidden' })
  })
})
