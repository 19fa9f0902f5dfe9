/**
 * @kubernetes/client-node against the real local stack: KubernetesObjectApi create, read, merge
 * patch, list and delete of a ConfigMap and an EdgePlacement (cluster-scoped, edge.kcp.io), and
 * `Watch` receiving ADDED, MODIFIED and DELETED.
 */
import {
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok } from './helpers/kubectl.ts'
import { withoutLateAnnouncements } from './helpers/late-announcements.ts'
import { namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const NS = 'client-node'
let stack: SharedStack
let api: KubernetesObjectApi

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace(NS) }))
  api = KubernetesObjectApi.makeApiClient(stack.kubeConfig())
})
afterAll(async () => {
  await stack?.close()
})

type WithData = KubernetesObject & { data?: Record<string, string> }
type Placement = KubernetesObject & { spec?: Record<string, unknown> }

async function statusOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p
    return 200
  } catch (e) {
    return (e as { code?: number }).code
  }
}

describe('client-node KubernetesObjectApi', () => {
  it('creates, reads, merge-patches, lists and deletes a ConfigMap', async () => {
    const spec: WithData = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cn', namespace: NS },
      data: { a: '1' },
    }
    const created = await api.create(spec)
    expect(created.metadata?.uid).toBeTruthy()
    expect(created.metadata?.annotations?.['kcp.io/cluster']).toBe('root')
    const read = await api.read<WithData>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cn', namespace: NS },
    })
    expect(read.data).toEqual({ a: '1' })
    const patched = await api.patch<WithData>(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cn', namespace: NS },
        data: { b: '2' },
      },
      undefined,
      undefined,
      'e2e',
      undefined,
      PatchStrategy.MergePatch
    )
    expect(patched.data).toEqual({ a: '1', b: '2' })
    expect(Number(patched.metadata?.resourceVersion)).toBeGreaterThan(
      Number(created.metadata?.resourceVersion)
    )
    const list = await api.list<WithData>('v1', 'ConfigMap', NS)
    expect(list.items.map((i) => i.metadata?.name)).toContain('cn')
    await api.delete({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cn', namespace: NS },
    })
    expect(
      await statusOf(
        api.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn', namespace: NS } })
      )
    ).toBe(404)
  })

  it('creates, reads, merge-patches, lists and deletes an EdgePlacement', async () => {
    const header = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'client-node-ep' },
    }
    const created = await api.create<Placement>({
      ...header,
      spec: {
        locationSelectors: [{ matchLabels: { env: 'prod' } }],
        namespaceSelector: { matchLabels: { app: 'a' } },
      },
    })
    expect(created.metadata?.generation).toBe(1)
    const read = await api.read<Placement>(header)
    expect(read.spec?.locationSelectors).toEqual([{ matchLabels: { env: 'prod' } }])
    const patched = await api.patch<Placement>(
      { ...header, spec: { locationSelectors: [{ matchLabels: { env: 'edge' } }] } },
      undefined,
      undefined,
      'e2e',
      undefined,
      PatchStrategy.MergePatch
    )
    expect(patched.spec?.locationSelectors).toEqual([{ matchLabels: { env: 'edge' } }])
    expect(patched.spec?.namespaceSelector).toEqual({ matchLabels: { app: 'a' } })
    expect(patched.metadata?.generation).toBe(2)
    const list = await api.list<Placement>('edge.kcp.io/v1alpha1', 'EdgePlacement')
    // Other files sharing the stack make EdgePlacements in root too: this file's only.
    const names = list.items.map((i) => i.metadata?.name ?? '')
    expect(names.filter((n) => n.startsWith('client-node-'))).toEqual(['client-node-ep'])
    await api.delete(header)
    expect(await statusOf(api.read(header))).toBe(404)
  })
})

describe('client-node Watch', () => {
  it('receives ADDED, MODIFIED and DELETED', async () => {
    const seen: { type: string; name: string; data?: Record<string, string> }[] = []
    const watch = new Watch(stack.kubeConfig())
    const controller = await watch.watch(
      `/api/v1/namespaces/${NS}/configmaps`,
      { allowWatchBookmarks: true },
      (type, obj: WithData) => {
        if (type !== 'BOOKMARK')
          seen.push({
            type,
            name: obj.metadata?.name ?? '',
            ...(obj.data ? { data: obj.data } : {}),
          })
      },
      () => undefined
    )
    try {
      const spec: WithData = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'watched', namespace: NS },
        data: { v: '1' },
      }
      await api.create(spec)
      await api.patch(
        { ...spec, data: { v: '2' } },
        undefined,
        undefined,
        'e2e',
        undefined,
        PatchStrategy.MergePatch
      )
      await api.delete(spec)
      for (let i = 0; i < 300 && !seen.some((e) => e.type === 'DELETED'); i++)
        await new Promise((r) => setTimeout(r, 100))
    } finally {
      controller.abort()
    }
    const all = seen.filter((e) => e.name === 'watched')
    const { events: mine, dropped } = withoutLateAnnouncements(all, (e) => e.data)
    expect(dropped).toBeLessThanOrEqual(2)
    expect(mine.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED'])
    expect(mine[1]?.data).toEqual({ v: '2' })
  })
})
