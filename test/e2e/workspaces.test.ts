/**
 * Workspaces on the real local stack: root:espw exists from the bootstrap; a Workspace created in
 * root with kubectl makes a new space that answers through a `--server` override and through a
 * kubeconfig context added for it, keeps its objects apart from root's, and disappears (404) when
 * the Workspace is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace, workspace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
})
afterAll(async () => {
  await stack?.close()
})

type Workspace = KubeObject & {
  spec?: { cluster?: string }
  status?: { phase?: string; URL?: string }
}

describe('workspaces', () => {
  it('has root:espw from the bootstrap, reachable with its kubeconfig context', async () => {
    const espw = okJson<Workspace>(await stack.kubectl(['get', 'workspace', 'espw', '-o', 'json']))
    expect(espw.status?.phase).toBe('Ready')
    expect(espw.status?.URL).toBe(`${stack.url}/clusters/root:espw`)
    const ns = ok(
      await stack.kubectl(['get', 'namespaces', '-o', 'name'], { context: 'root:espw' })
    )
    expect(ns).not.toContain('error')
  })

  it('creates a space for a new Workspace, separate from root', async () => {
    expect(
      ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('team-a') }))
    ).toContain('workspace.tenancy.kcp.io/team-a created')
    const ws = okJson<Workspace>(await stack.kubectl(['get', 'workspaces', 'team-a', '-o', 'json']))
    expect(ws.status?.phase).toBe('Ready')
    expect(ws.status?.URL).toBe(`${stack.url}/clusters/root:team-a`)
    expect(ws.spec?.cluster).toBeTruthy()

    const server = `${stack.url}/clusters/root:team-a`
    ok(
      await stack.kubectl(['--server', server, 'create', '-f', '-'], { input: namespace('inside') })
    )
    const cm = configMap('inside', 'only-here', { k: 'v' })
    ok(await stack.kubectl(['--server', server, 'create', '-f', '-'], { input: cm }))

    const caFile = stack.info().caFile
    ok(
      await stack.kubectl([
        'config',
        'set-cluster',
        'team-a',
        '--server',
        server,
        '--certificate-authority',
        caFile,
        '--embed-certs',
      ])
    )
    ok(
      await stack.kubectl([
        'config',
        'set-context',
        'team-a',
        '--cluster',
        'team-a',
        '--user',
        'edgeplane-admin',
      ])
    )
    const inside = okJson<KubeObject & { data?: Record<string, string> }>(
      await stack.kubectl(['get', 'configmap', 'only-here', '-n', 'inside', '-o', 'json'], {
        context: 'team-a',
      })
    )
    expect(inside.data).toEqual({ k: 'v' })
    expect(inside.metadata.annotations?.['kcp.io/cluster']).toBe(ws.spec?.cluster)

    const fromRoot = await stack.kubectl(['get', 'namespace', 'inside'])
    expect(fromRoot.code).toBe(1)
    expect(fromRoot.stderr).toContain('NotFound')
    const byId = await stack.api(
      `/clusters/${ws.spec?.cluster}/api/v1/namespaces/inside/configmaps/only-here`
    )
    expect(byId.status).toBe(200)
  })

  it('lists both workspaces in root', async () => {
    const names = ok(await stack.kubectl(['get', 'workspaces', '-o', 'name']))
    // Other files sharing the stack make workspaces in root too: these two only.
    const ours = new Set(['workspace.tenancy.kcp.io/espw', 'workspace.tenancy.kcp.io/team-a'])
    expect(
      names
        .split('\n')
        .filter((n) => ours.has(n))
        .sort()
    ).toEqual(['workspace.tenancy.kcp.io/espw', 'workspace.tenancy.kcp.io/team-a'])
  })

  it('deleting the Workspace removes the space: requests to it get 404', async () => {
    ok(await stack.kubectl(['delete', 'workspace', 'team-a', '--timeout', '60s']))
    const gone = await stack.kubectl(['get', 'workspace', 'team-a'])
    expect(gone.stderr).toContain('NotFound')
    let status = 0
    for (let i = 0; i < 100; i++) {
      status = (await stack.api('/clusters/root:team-a/api/v1/namespaces')).status
      if (status === 404) break
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(status).toBe(404)
    const viaKubectl = await stack.kubectl(['get', 'namespaces'], { context: 'team-a' })
    expect(viaKubectl.code).not.toBe(0)
    expect(viaKubectl.stderr).toMatch(/NotFound|not found|could not find/i)
  })
})
