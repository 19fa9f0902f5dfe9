import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtinServed, createMemoryKube } from '../../bench/edge-memory-kube.ts'
import { builtinsFrom } from '../../lib/apis/builtins.ts'
import type { DesiredState, ObjectRef } from '../../lib/edge/protocol.ts'
import { createAgent } from '../../lib/edge-agent/agent.ts'
import type { CenterClient } from '../../lib/edge-agent/center-client.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { silentLogger } from '../../lib/log.ts'
import { isRemoteError } from '../../lib/remote/remote-error.ts'

const CM: ObjectRef = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'x',
  name: 'c',
}
const NS: ObjectRef = { group: '', version: 'v1', resource: 'namespaces', namespace: '', name: 'x' }
const apply = { fieldManager: 'edgeplane-agent', force: true }
const cm = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'x' },
  data,
})
const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }

describe('builtinServed', () => {
  it('serves the Kubernetes built-ins, not kcp or the edge API', () => {
    const served = builtinServed()
    const find = (g: string, r: string) => served.find((s) => s.group === g && s.resource === r)
    expect(find('', 'configmaps')).toMatchObject({
      version: 'v1',
      namespaced: true,
      preferred: true,
    })
    expect(find('', 'namespaces')).toMatchObject({ kind: 'Namespace', namespaced: false })
    expect(find('apps', 'deployments')?.verbs).toContain('list')
    expect(served.some((s) => s.group.endsWith('kcp.io'))).toBe(false)
  })
})

describe('createMemoryKube', () => {
  it('starts with the built-in namespaces', async () => {
    const kube = createMemoryKube()
    const nss = await kube.list({ group: '', version: 'v1', resource: 'namespaces' })
    expect(nss.map((n) => n.metadata.name).sort()).toEqual([
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ])
  })

  it('refuses a namespaced object whose namespace is absent', async () => {
    const kube = createMemoryKube()
    await expect(kube.apply(CM, cm({ a: '1' }), apply)).rejects.toSatisfy((e) =>
      isRemoteError(e, 404)
    )
  })

  it('creates, then updates with a new generation only when the content changed', async () => {
    const writes: string[] = []
    const kube = createMemoryKube({
      onWrite: (ref, o) => writes.push(`${ref.name}@${o.metadata.generation}`),
    })
    await kube.apply(NS, ns, apply)
    const a = await kube.apply(CM, cm({ a: '1' }), apply)
    expect(a.metadata).toMatchObject({
      generation: 1,
      managedFields: [{ manager: 'edgeplane-agent', operation: 'Apply' }],
    })
    const same = await kube.apply(CM, cm({ a: '1' }), apply)
    expect(same.metadata.generation).toBe(1)
    expect(same.metadata.uid).toBe(a.metadata.uid)
    expect(same.metadata.resourceVersion).not.toBe(a.metadata.resourceVersion)
    const b = await kube.apply(CM, cm({ a: '2' }), apply)
    expect(b.metadata.generation).toBe(2)
    expect((await kube.get(CM))?.data).toEqual({ a: '2' })
    expect(writes).toEqual(['x@1', 'c@1', 'c@1', 'c@2'])
    expect(await kube.list({ group: '', version: 'v1', resource: 'configmaps' }, 'x')).toHaveLength(
      1
    )
    expect(await kube.list({ group: '', version: 'v1', resource: 'configmaps' }, 'y')).toHaveLength(
      0
    )
  })

  it('hands out copies', async () => {
    const kube = createMemoryKube()
    await kube.apply(NS, ns, apply)
    const got = await kube.get(NS)
    got!.metadata.name = 'changed'
    expect((await kube.get(NS))?.metadata.name).toBe('x')
  })

  it('deletes with a uid precondition, and a namespace with its content', async () => {
    const kube = createMemoryKube()
    const n = await kube.apply(NS, ns, apply)
    await kube.apply(CM, cm({ a: '1' }), apply)
    await expect(kube.delete(NS, { uid: 'other' })).rejects.toSatisfy((e) => isRemoteError(e, 409))
    await kube.delete(NS, { uid: n.metadata.uid ?? '' })
    expect(await kube.get(CM)).toBeUndefined()
    await expect(kube.delete(NS, { uid: 'any' })).rejects.toSatisfy((e) => isRemoteError(e, 404))
  })
})

describe('the real agent over the memory kube', () => {
  let dir = ''
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('applies the desired state once, then sees it unchanged', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-memory-kube-'))
    const state: DesiredState = {
      kind: 'DesiredState',
      mailbox: 'mb',
      version: 3,
      full: true,
      entries: [
        { ...NS, hash: 'h-ns', generation: 1, rv: 2 },
        { ...CM, hash: 'h-cm', generation: 1, rv: 3 },
      ],
      bodies: { 'h-ns': ns, 'h-cm': cm({ marker: 'm1' }) } as DesiredState['bodies'],
    }
    const asked: (number | undefined)[] = []
    const center: CenterClient = {
      async getDesired(version) {
        asked.push(version)
        return version === 3 ? { kind: 'unchanged' } : { kind: 'desired', state }
      },
      async postReport() {
        return { kind: 'ReportResult', accepted: 1, rejected: [] }
      },
    }
    const writes: string[] = []
    const kube = createMemoryKube({ onWrite: (ref) => writes.push(ref.resource) })
    const agent = await createAgent({
      mailbox: 'mb',
      center,
      kube,
      stateDir: dir,
      record: { namespace: 'kube-system' },
      builtins: builtinsFrom(),
      log: silentLogger,
    })
    const first = await agent.poll()
    expect(first).toMatchObject({ ok: true, outcome: 'applied', created: 2, problems: 0 })
    const second = await agent.poll()
    expect(second).toMatchObject({ ok: true, outcome: 'unchanged', created: 0, updated: 0 })
    expect(asked).toEqual([undefined, 3])
    expect(writes).toEqual(['namespaces', 'configmaps'])
    expect((await kube.get(CM))?.data).toEqual({ marker: 'm1' })
  })
})
