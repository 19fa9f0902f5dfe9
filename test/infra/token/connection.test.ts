import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import type { StackInfo } from '../../../infra/local/stack-info.ts'
import { hubBase, resolveConnection } from '../../../infra/token/connection.ts'

const files: Record<string, string> = {
  '/data/admin-token': 'stack-admin\n',
  '/data/tls/cert.pem': 'STACK CA',
  '/other/token': 'other-admin\n',
  '/other/ca.pem': 'OTHER CA',
  '/kube/config': stringify({
    'current-context': 'root',
    clusters: [
      {
        name: 'root',
        cluster: {
          server: 'https://hub.example:8787/clusters/root',
          'certificate-authority-data': Buffer.from('KC CA').toString('base64'),
        },
      },
      { name: 'team', cluster: { server: 'https://hub.example:8787/clusters/root:team' } },
    ],
    contexts: [
      { name: 'root', context: { cluster: 'root', user: 'admin' } },
      { name: 'team', context: { cluster: 'team', user: 'file-user' } },
    ],
    users: [
      { name: 'admin', user: { token: 'kc-admin' } },
      { name: 'file-user', user: { tokenFile: '/other/token' } },
    ],
  }),
}
const read = async (p: string) => {
  const f = files[p]
  if (f === undefined) throw new Error(`ENOENT ${p}`)
  return f
}
const stack = {
  url: 'https://127.0.0.1:8787',
  adminTokenFile: '/data/admin-token',
  caFile: '/data/tls/cert.pem',
} as StackInfo

describe('resolveConnection', () => {
  it('uses the local stack by default', async () => {
    expect(await resolveConnection({}, stack, read)).toEqual({
      hubUrl: 'https://127.0.0.1:8787',
      token: 'stack-admin',
      caPem: 'STACK CA',
    })
  })

  it('knows the stack hub by another loopback name', async () => {
    expect(await resolveConnection({ hubUrl: 'https://localhost:8787' }, stack, read)).toEqual({
      hubUrl: 'https://localhost:8787',
      token: 'stack-admin',
      caPem: 'STACK CA',
    })
  })

  it('does not send the stack token to another hub', async () => {
    const other = await resolveConnection({ hubUrl: 'https://elsewhere' }, stack, read)
    expect(other).toContain('no admin token')
    expect(
      await resolveConnection(
        { hubUrl: 'https://elsewhere', tokenFile: '/other/token', caFile: '/other/ca.pem' },
        stack,
        read
      )
    ).toEqual({ hubUrl: 'https://elsewhere', token: 'other-admin', caPem: 'OTHER CA' })
  })

  it('reads a kubeconfig context: server base, token or token file, CA', async () => {
    expect(await resolveConnection({ kubeconfig: '/kube/config' }, stack, read)).toEqual({
      hubUrl: 'https://hub.example:8787',
      token: 'kc-admin',
      caPem: 'KC CA',
    })
    expect(
      await resolveConnection({ kubeconfig: '/kube/config', context: 'team' }, undefined, read)
    ).toEqual({ hubUrl: 'https://hub.example:8787', token: 'other-admin' })
    expect(
      await resolveConnection({ kubeconfig: '/kube/config', context: 'nope' }, undefined, read)
    ).toContain('no context nope')
  })

  it('says what is missing without a stack', async () => {
    expect(await resolveConnection({}, undefined, read)).toContain('no hub')
  })

  it('drops a space suffix from servers', () => {
    expect(hubBase('https://h/clusters/root:a/')).toBe('https://h')
    expect(hubBase('https://h/prefix')).toBe('https://h/prefix')
  })
})
