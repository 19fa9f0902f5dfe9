/**
 * The local stack's lifecycle: SIGTERM and Ctrl-C (SIGINT) stop it with exit code 0 and leave no
 * wrangler or workerd process behind; a second start on the same data folder reuses the table,
 * the admin token and every object; a second stack with another port and data folder runs
 * alongside, isolated; a second start on a folder in use, or on a port in use, fails clearly; a
 * start after a SIGKILL stops the wrangler left running and finds the data.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groupMembers } from '../../infra/local/process-group.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type E2eStack, runStartProgram, startStack } from './helpers/stack.ts'

let stack: E2eStack
let other: E2eStack | undefined

beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await other?.destroy()
  await stack?.destroy()
})

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false
  )

describe('stop and restart', () => {
  it('keeps objects, token and table across a SIGTERM stop and a start', async () => {
    ok(await stack.kubectl(['create', '-f', '-'], { input: namespace('durable') }))
    ok(
      await stack.kubectl(['create', '-f', '-'], {
        input: configMap('durable', 'keep', { k: 'v' }),
      })
    )
    const before = okJson<KubeObject>(
      await stack.kubectl(['get', 'cm', 'keep', '-n', 'durable', '-o', 'json'])
    )
    const token = stack.adminToken()
    const wranglerPid = stack.info().wrangler.pid
    expect((await stat(join(stack.dataDir, 'admin-token'))).mode & 0o777).toBe(0o600)

    expect(await stack.stop('SIGTERM')).toBe(0)
    expect(groupMembers(wranglerPid)).toEqual([])
    expect(await exists(join(stack.dataDir, 'stack.json'))).toBe(false)
    expect(await exists(join(stack.dataDir, 'lock'))).toBe(false)
    expect(await exists(join(stack.dataDir, 'kubeconfig'))).toBe(true)

    await stack.start()
    expect(stack.adminToken()).toBe(token)
    expect(stack.info().wrangler.pid).not.toBe(wranglerPid)
    const after = okJson<KubeObject & { data?: unknown }>(
      await stack.kubectl(['get', 'cm', 'keep', '-n', 'durable', '-o', 'json'])
    )
    expect(after.metadata.uid).toBe(before.metadata.uid)
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(after.data).toEqual({ k: 'v' })
    ok(await stack.kubectl(['get', 'workspace', 'espw']))
    const kubeconfig = await readFile(stack.kubeconfig, 'utf8')
    expect(kubeconfig).toContain(token)
    ok(
      await stack.kubectl(['create', '-f', '-'], {
        input: configMap('durable', 'after-restart', {}),
      })
    )
    const rv = Number(
      okJson<KubeObject>(
        await stack.kubectl(['get', 'cm', 'after-restart', '-n', 'durable', '-o', 'json'])
      ).metadata.resourceVersion
    )
    expect(rv).toBeGreaterThan(Number(before.metadata.resourceVersion))
  })

  it('stops on Ctrl-C (SIGINT) with exit code 0 and no orphans, and starts again', async () => {
    const wranglerPid = stack.info().wrangler.pid
    expect(await stack.stop('SIGINT')).toBe(0)
    expect(groupMembers(wranglerPid)).toEqual([])
    await stack.start()
    expect(
      okJson<KubeObject>(await stack.kubectl(['get', 'cm', 'keep', '-n', 'durable', '-o', 'json']))
        .metadata.name
    ).toBe('keep')
  })
})

describe('after a crash', () => {
  it('a start after SIGKILL stops the left-over wrangler and finds the data', async () => {
    const old = stack.info().wrangler.pid
    expect(groupMembers(old)?.length).toBeGreaterThan(0)
    await stack.stop('SIGKILL')
    expect(groupMembers(old)?.length).toBeGreaterThan(0)
    await stack.start()
    expect(groupMembers(old)).toEqual([])
    const cm = okJson<KubeObject & { data?: unknown }>(
      await stack.kubectl(['get', 'cm', 'keep', '-n', 'durable', '-o', 'json'])
    )
    expect(cm.data).toEqual({ k: 'v' })
  })
})

describe('side by side', () => {
  it('runs a second stack on another port and data folder, isolated from the first', async () => {
    other = await startStack()
    expect(other.port).not.toBe(stack.port)
    expect(other.info().dynalite.port).not.toBe(stack.info().dynalite.port)
    expect(other.adminToken()).not.toBe(stack.adminToken())
    const [a, b] = await Promise.all([
      stack.api('/healthz', { token: null }),
      other.api('/healthz', { token: null }),
    ])
    expect([a.status, b.status]).toEqual([200, 200])
    ok(await other.kubectl(['create', '-f', '-'], { input: namespace('only-in-other') }))
    expect(ok(await other.kubectl(['get', 'namespace', 'only-in-other', '-o', 'name']))).toContain(
      'only-in-other'
    )
    expect((await stack.kubectl(['get', 'namespace', 'only-in-other'])).code).toBe(1)
    expect((await other.kubectl(['get', 'namespace', 'durable'])).code).toBe(1)
    expect((await stack.api('/api/v1/namespaces', { token: other.adminToken() })).status).toBe(401)
  })

  it('refuses a second start on a data folder in use, and on a port in use', async () => {
    const sameDir = await runStartProgram({
      EDGEPLANE_DATA: stack.dataDir,
      EDGEPLANE_PORT: String(stack.port + 1),
    })
    expect(sameDir.code).toBe(1)
    expect(sameDir.stderr).toContain('another edgeplane stack')
    expect(sameDir.stdout).toBe('')
    const samePort = await runStartProgram({
      EDGEPLANE_DATA: join(stack.dataDir, 'elsewhere'),
      EDGEPLANE_PORT: String(stack.port),
    })
    expect(samePort.code).toBe(1)
    expect(samePort.stderr).toContain('already in use')
    expect((await stack.api('/healthz', { token: null })).status).toBe(200)
  })
})
