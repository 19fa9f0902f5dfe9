/**
 * The tenancy kinds through the hub API (`tenancy.edgeplane.io/v1alpha1` Inventory and
 * PlacementGrant, root only): served only in root, every verb admin only (a user token reaching
 * root included), validated by their schemas; a user token issued while the hub is single-team is
 * warned about it; and SinglePlacementSlices, the where step's answer, cannot be written by a
 * tenant in its own space (else it could name any edge past its grants).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
const WS = '/apis/tenancy.kcp.io/v1alpha1/workspaces'
const TOKENS = '/apis/auth.edgeplane.io/v1alpha1/tokens'
const GRANTS = '/apis/tenancy.edgeplane.io/v1alpha1/placementgrants'
const INVENTORIES = '/apis/tenancy.edgeplane.io/v1alpha1/inventories'
const SLICES = '/apis/edge.kcp.io/v1alpha1/singleplacementslices'

async function issue(name: string, spaces: string[]) {
  const res = await hub.call('POST', TOKENS, {
    apiVersion: 'auth.edgeplane.io/v1alpha1',
    kind: 'Token',
    metadata: { name },
    spec: { spaces },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { token: res.body.status.token as string, warning: res.headers.get('warning') ?? '' }
}
const grant = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec,
})
const slice = (name: string) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'SinglePlacementSlice',
  metadata: { name },
  destinations: [
    {
      cluster: 'abc',
      locationName: 'florin',
      syncTargetName: 'florin',
      syncTargetUID: '00000000-0000-4000-8000-000000000000',
    },
  ],
})

beforeAll(async () => {
  hub = await createTestHub()
  for (const name of ['team-a', 'imw-1'])
    await hub.call('POST', WS, {
      apiVersion: 'tenancy.kcp.io/v1alpha1',
      kind: 'Workspace',
      metadata: { name },
    })
})
afterAll(() => hub.close())

describe('tenancy kinds', () => {
  it('warns on a user token while single-team; the kinds are root only and admin only', async () => {
    const rootUser = await issue('root-user', ['root', 'root:team-a'])
    expect(rootUser.warning).toContain('single-team')
    const token = rootUser.token
    for (const path of [GRANTS, INVENTORIES]) {
      expect((await hub.call('GET', path, undefined, { token })).status).toBe(403)
      const made = await hub.call('POST', path, grant('x', { workloadSpaces: ['root:x'] }), {
        token,
      })
      expect(made.status).toBe(403)
      expect(made.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' })
      expect((await hub.call('GET', `/clusters/root:team-a${path}`)).status).toBe(404)
    }
  })
  it('validates specs and stores grants for admins; a user token then gets no warning', async () => {
    const bad = await hub.call('POST', GRANTS, grant('bad', { locations: [] }))
    expect(bad.status).toBe(422)
    expect(JSON.stringify(bad.body)).toContain('workloadSpaces')
    const made = await hub.call(
      'POST',
      GRANTS,
      grant('team-a', {
        workloadSpaces: ['root:team-a'],
        locations: [{ inventory: 'root:imw-1', selector: { matchLabels: { env: 'prod' } } }],
        resources: [{ group: 'rbac.authorization.k8s.io', resource: 'roles' }],
      })
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const inv = await hub.call('POST', INVENTORIES, {
      apiVersion: 'tenancy.edgeplane.io/v1alpha1',
      kind: 'Inventory',
      metadata: { name: 'imw-1' },
      spec: { space: 'root:imw-1' },
    })
    expect(inv.status).toBe(201)
    expect((await hub.call('GET', INVENTORIES)).body.items).toHaveLength(1)
    expect((await issue('alice', ['root:team-a'])).warning).toBe('')
  })
  it('refuses a tenant writing a SinglePlacementSlice in its own space; reading works', async () => {
    const { token } = await issue('bob', ['root:team-a'])
    const path = `/clusters/root:team-a${SLICES}`
    const made = await hub.call('POST', path, slice('forged'), { token })
    expect(made.status).toBe(403)
    expect(made.body.message).toContain('the where step writes them')
    expect((await hub.call('GET', path, undefined, { token })).status).toBe(200)
    // an admin still may (operators repairing by hand)
    expect((await hub.call('POST', path, slice('by-admin'))).status).toBe(201)
    for (const [method, body] of [
      ['PUT', slice('by-admin')],
      ['DELETE', undefined],
    ] as const)
      expect((await hub.call(method, `${path}/by-admin`, body, { token })).status).toBe(403)
  })
})
