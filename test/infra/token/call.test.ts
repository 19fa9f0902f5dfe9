/**
 * The token CLI's calls against an in-process hub (app.request over dynalite): issue, list and
 * revoke end to end, and refusals surfacing the hub's Status message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueToken, listTokens, revokeToken, type SendFn } from '../../../infra/token/call.ts'
import type { Connection } from '../../../infra/token/connection.ts'
import { issuedKubeconfig, renderTokenTable } from '../../../infra/token/format.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'
import { ADMIN_TOKEN, BASE, createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
let send: SendFn
beforeAll(async () => {
  hub = await createTestHub()
  send = (url, init) => hub.app.request(url, init) as Promise<Response>
})
afterAll(() => hub.close())

const admin: Connection = { hubUrl: BASE, token: ADMIN_TOKEN }
const namespacesAs = async (token: string, space: string) =>
  (await hub.call('GET', `/clusters/${space}/api/v1/namespaces`, undefined, { token })).status

describe('token CLI calls', () => {
  it('issues, lists and revokes', async () => {
    const issued = await issueToken(admin, send, {
      name: 'alice',
      spaces: ['root:espw'],
      groups: ['devs'],
      admin: false,
      expirationSeconds: 3600,
    })
    expect(issued.name).toBe('alice')
    expect(await namespacesAs(issued.token, 'root:espw')).toBe(200)
    expect(await namespacesAs(issued.token, 'root')).toBe(403)
    const list = await listTokens(admin, send)
    expect(list.map((t) => t.metadata.name)).toEqual(['alice'])
    const table = renderTokenTable(list, new Date())
    expect(table).toMatch(/^NAME\s+USER\s+TYPE\s+SPACES\s+EXPIRES\s+AGE\n/)
    expect(table).toMatch(/alice\s+alice\s+user\s+root:espw\s+(59m|60m)/)
    expect(table).not.toContain(issued.token)
    const kubeconfig = issuedKubeconfig(admin, issued)
    expect(kubeconfig).toContain(`server: ${BASE}/clusters/root:espw`)
    expect(kubeconfig).toContain(`token: ${issued.token}`)
    await revokeToken(admin, send, 'alice')
    expect(await namespacesAs(issued.token, 'root:espw')).toBe(401)
    expect(await listTokens(admin, send)).toEqual([])
  })

  it('issues admin tokens', async () => {
    const issued = await issueToken(admin, send, {
      name: 'ops',
      spaces: [],
      groups: [],
      admin: true,
    })
    expect(await namespacesAs(issued.token, 'root')).toBe(200)
    expect(renderTokenTable(await listTokens(admin, send), new Date())).toMatch(
      /ops\s+ops\s+admin\s+\*\s+(29|30)d/
    )
  })

  it('surfaces refusals with their code and message', async () => {
    await hub.mintToken('plain-user', ['root'])
    const user: Connection = { hubUrl: BASE, token: 'plain-user' }
    const refused = await listTokens(user, send).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(RemoteError)
    expect((refused as RemoteError).code).toBe(403)
    expect((refused as RemoteError).message).toContain('admin only')
    const missing = await revokeToken(admin, send, 'nobody').catch((e: unknown) => e)
    expect((missing as RemoteError).code).toBe(404)
    const bad = await issueToken(admin, send, {
      name: 'bad',
      spaces: ['team-a'],
      groups: [],
      admin: false,
    }).catch((e: unknown) => e)
    expect((bad as RemoteError).code).toBe(422)
    expect((bad as RemoteError).message).toContain('spec.spaces[0]')
  })
})
