/**
 * Tokens on the real local stack, with real kubectl and the token CLI: `kubectl create -f` issues a
 * token (shown once), `kubectl get tokens` prints them, the token reaches its space only, `kubectl
 * delete token` revokes it; `npm run token` issues, lists and revokes through the hub over HTTPS
 * with the stack's admin token; and replacing the local admin token and restarting revokes the
 * old one.
 */
import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { runProgram } from './helpers/run-program.ts'
import { type E2eStack, REPO_ROOT, startStack } from './helpers/stack.ts'

let stack: E2eStack

beforeAll(async () => {
  stack = await startStack({ relay: false })
})
afterAll(async () => {
  await stack?.destroy()
})

/** `npm run token -- <args>` against this stack's data folder. */
const tokenCli = (args: string[]) =>
  runProgram(process.execPath, ['--experimental-strip-types', 'infra/token/main.ts', ...args], {
    cwd: REPO_ROOT,
    env: { EDGEPLANE_DATA: stack.dataDir },
  })

const namespacesAs = async (token: string, space: string) =>
  (await stack.api(`/clusters/${space}/api/v1/namespaces`, { token })).status

const TOKEN_YAML = `apiVersion: auth.edgeplane.io/v1alpha1
kind: Token
metadata:
  name: alice
spec:
  spaces: ["root:team-a"]
  groups: [team-a]
  expirationSeconds: 86400
`

describe('tokens', () => {
  it('are issued, listed and revoked with kubectl', async () => {
    ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('team-a') }))
    const token = ok(
      await stack.kubectl(['create', '-f', '-', '-o', 'jsonpath={.status.token}'], {
        input: TOKEN_YAML,
      })
    ).trim()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const table = ok(await stack.kubectl(['get', 'tokens']))
    expect(table).toMatch(/NAME\s+USER\s+TYPE\s+SPACES\s+EXPIRES\s+AGE/)
    expect(table).toMatch(/alice\s+alice\s+user\s+root:team-a\s+(23h|24h)/)
    expect(ok(await stack.kubectl(['get', 'token', 'alice', '-o', 'yaml']))).not.toContain(token)

    const asAlice = (args: string[], context: string) =>
      stack.kubectl(['--token', token, ...args], { context })
    const whoami = ok(
      await asAlice(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'], 'root')
    )
    expect(whoami).toBe('alice')
    expect((await asAlice(['get', 'ns'], 'root')).stderr).toContain('Forbidden')
    const server = `${stack.url}/clusters/root:team-a`
    ok(await asAlice(['--server', server, 'get', 'ns'], 'root'))

    expect(ok(await stack.kubectl(['delete', 'token', 'alice']))).toContain('deleted')
    expect(await namespacesAs(token, 'root:team-a')).toBe(401)
  })

  it('are issued, listed and revoked with npm run token', async () => {
    const issued = await tokenCli([
      'issue',
      '--name',
      'bob',
      '--space',
      'root:team-a',
      '--expires',
      '720h',
    ])
    expect(issued.code, issued.stderr).toBe(0)
    const token = issued.stdout.trim()
    expect(await namespacesAs(token, 'root:team-a')).toBe(200)
    expect(await namespacesAs(token, 'root')).toBe(403)
    const list = await tokenCli(['list'])
    expect(list.stdout).toMatch(/bob\s+bob\s+user\s+root:team-a\s+(29|30)d/)
    const revoked = await tokenCli(['revoke', 'bob'])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(await namespacesAs(token, 'root:team-a')).toBe(401)
    const again = await tokenCli(['revoke', 'bob'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('404')
  })

  it('revokes the old local admin token when it is replaced and the stack restarts', async () => {
    const old = stack.adminToken()
    expect(await stack.stop('SIGTERM')).toBe(0)
    await writeFile(stack.info().adminTokenFile, 'a-fresh-local-admin-token-for-the-e2e\n')
    await stack.start()
    expect(stack.adminToken()).toBe('a-fresh-local-admin-token-for-the-e2e')
    expect(await namespacesAs(old, 'root')).toBe(401)
    expect(await namespacesAs(stack.adminToken(), 'root')).toBe(200)
    ok(await stack.kubectl(['get', 'tokens']))
  })
})
