/**
 * Every Namespace carries `kubernetes.io/metadata.name` with its name, as kube-apiserver keeps it:
 * set on create, and put back by every update, patch and apply that drops or changes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const LABEL = 'kubernetes.io/metadata.name'
const NS = '/clusters/root/api/v1/namespaces'
let hub: TestHub

beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const labels = async (name: string) => (await hub.call('GET', `${NS}/${name}`)).body.metadata.labels

describe('the namespace name label', () => {
  it('is set on create, beside the labels written', async () => {
    const res = await hub.call('POST', NS, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'web', labels: { team: 'a' } },
    })
    expect(res.status).toBe(201)
    expect(res.body.metadata.labels).toEqual({ team: 'a', [LABEL]: 'web' })
    expect(await labels('web')).toEqual({ team: 'a', [LABEL]: 'web' })
  })

  it('comes back after an update that drops it', async () => {
    const current = (await hub.call('GET', `${NS}/web`)).body
    const res = await hub.call('PUT', `${NS}/web`, {
      ...current,
      metadata: { ...current.metadata, labels: { team: 'b' } },
    })
    expect(res.status).toBe(200)
    expect(await labels('web')).toEqual({ team: 'b', [LABEL]: 'web' })
  })

  it('comes back after a patch that changes it, and after an apply without it', async () => {
    const patched = await hub.call(
      'PATCH',
      `${NS}/web`,
      { metadata: { labels: { [LABEL]: 'other' } } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(patched.status).toBe(200)
    expect(await labels('web')).toEqual({ team: 'b', [LABEL]: 'web' })
    const applied = await hub.call(
      'PATCH',
      `${NS}/applied?fieldManager=tester`,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'applied', labels: { x: '1' } } },
      { contentType: 'application/apply-patch+yaml' }
    )
    expect(applied.status).toBe(201)
    expect(await labels('applied')).toEqual({ x: '1', [LABEL]: 'applied' })
  })

  it('is on the default Namespace of a new workspace', async () => {
    await hub.call('POST', '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces', {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'team-x' },
    })
    const ns = await hub.call('GET', '/clusters/root:team-x/api/v1/namespaces/default')
    expect(ns.body.metadata.labels).toEqual({ [LABEL]: 'default' })
  })
})
