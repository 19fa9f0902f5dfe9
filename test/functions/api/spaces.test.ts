import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resumeTerminations } from '../../../lib/hub/resume-terminations.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const ws = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})
const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })

describe('workspaces and spaces', () => {
  it('bootstraps root:espw as a ready workspace of root', async () => {
    const res = await hub.call('GET', `/clusters/root${WS}/espw`)
    expect(res.status).toBe(200)
    expect(res.body.status).toMatchObject({
      phase: 'Ready',
      URL: 'http://hub.test/clusters/root:espw',
    })
    expect(res.body.spec.cluster).toMatch(/^[a-z0-9]{16}$/)
  })
  it('creates nested spaces through Workspaces and routes by path and by id', async () => {
    expect((await hub.call('POST', `/clusters/root${WS}`, ws('my-org'))).status).toBe(201)
    const child = await hub.call('POST', `/clusters/root:my-org${WS}`, ws('wmw-c'))
    expect(child.status).toBe(201)
    const id = child.body.spec.cluster
    expect(
      (await hub.call('POST', '/clusters/root:my-org:wmw-c/api/v1/namespaces', ns('work'))).status
    ).toBe(201)
    const byId = await hub.call('GET', `/clusters/${id}/api/v1/namespaces/work`)
    expect(byId.status).toBe(200)
    expect(byId.body.metadata.annotations['kcp.io/cluster']).toBe(id)
    expect((await hub.call('GET', '/clusters/root/api/v1/namespaces/work')).status).toBe(404)
  })
  it('lists one resource across all spaces for admins', async () => {
    await hub.call('POST', '/clusters/root/api/v1/namespaces', ns('work'))
    const res = await hub.call('GET', '/clusters/*/api/v1/namespaces')
    const work = res.body.items.filter((i: any) => i.metadata.name === 'work')
    expect(new Set(work.map((i: any) => i.metadata.annotations['kcp.io/cluster'])).size).toBe(2)
    const write = await hub.call('POST', '/clusters/*/api/v1/namespaces', ns('nope'))
    expect(write.status).toBe(405)
  })
  it('answers 404 for an unknown space', async () => {
    expect((await hub.call('GET', '/clusters/root:nowhere/api/v1/namespaces')).status).toBe(404)
  })
  it('deletes a workspace with its space and everything in it, nested ones included', async () => {
    await hub.call('POST', `/clusters/root${WS}`, ws('temp'))
    await hub.call('POST', `/clusters/root:temp${WS}`, ws('inner'))
    await hub.call('POST', '/clusters/root:temp:inner/api/v1/namespaces', ns('deep'))
    await hub.call('POST', '/clusters/root:temp/api/v1/namespaces', ns('shallow'))
    const del = await hub.call('DELETE', `/clusters/root${WS}/temp`)
    expect(del.status).toBe(200)
    await hub.settle()
    expect((await hub.call('GET', `/clusters/root${WS}/temp`)).status).toBe(404)
    expect((await hub.call('GET', '/clusters/root:temp/api/v1/namespaces')).status).toBe(404)
    expect((await hub.call('GET', '/clusters/root:temp:inner/api/v1/namespaces')).status).toBe(404)
    const all = await hub.call('GET', '/clusters/*/api/v1/namespaces')
    expect(all.body.items.map((i: any) => i.metadata.name)).not.toContain('deep')
  })
  it('creates nothing in a workspace being deleted, and lets what holds it up finish', async () => {
    await hub.call('POST', `/clusters/root${WS}`, ws('closing'))
    const CMS = '/clusters/root:closing/api/v1/namespaces/default/configmaps'
    const held = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', finalizers: ['x.io/wait'] },
    }
    expect((await hub.call('POST', CMS, held)).status).toBe(201)
    const deleting = await hub.call('DELETE', `/clusters/root${WS}/closing`)
    expect(deleting.status).toBe(200)
    expect(deleting.body.status.phase).toBe('Terminating')
    await hub.settle()
    // While its content holds it up, the workspace says so, as kcp's does.
    const terminating = await hub.call('GET', `/clusters/root${WS}/closing`)
    expect(terminating.body.status).toMatchObject({ phase: 'Terminating' })
    expect(terminating.body.metadata.deletionTimestamp).toBeTruthy()
    const late = await hub.call('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'late' },
    })
    expect(late.status).toBe(403)
    expect(late.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message:
        'configmaps "late" is forbidden: unable to create new content in workspace root:closing because it is being terminated',
      details: {
        name: 'late',
        kind: 'configmaps',
        causes: [{ reason: 'WorkspaceTerminating', field: 'metadata.clusterName' }],
      },
    })
    // Namespaces too: a new one would outlive its space.
    const nsLate = await hub.call('POST', '/clusters/root:closing/api/v1/namespaces', ns('late'))
    expect(nsLate.status).toBe(403)
    expect((await hub.call('GET', `${CMS}/late`)).status).toBe(404)
    // What holds the deletion up can still be changed, and then the workspace goes.
    const patched = await hub.call(
      'PATCH',
      `${CMS}/held`,
      { metadata: { finalizers: null } },
      { contentType: 'application/merge-patch+json' }
    )
    expect(patched.status).toBe(200)
    await resumeTerminations(hub.deps, 'http://hub.test')
    await hub.settle()
    expect((await hub.call('GET', `/clusters/root${WS}/closing`)).status).toBe(404)
  })
})
