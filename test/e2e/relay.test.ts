/**
 * The watch relay that `npm start` runs: a SyncTarget applied with kubectl in an inventory space
 * gets its mailbox Workspace in root:espw (the relay posts the mailbox key to the hub's hook); when
 * the relay is killed the stack starts a new one (a new pid in stack.json), which serves a second
 * SyncTarget the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { mailboxName } from '../../lib/reconcile/keys.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack

beforeAll(async () => {
  stack = await startStack()
})
afterAll(async () => {
  await stack?.destroy()
})

const syncTarget = (name: string) =>
  JSON.stringify({ apiVersion: 'edge.kcp.io/v1alpha1', kind: 'SyncTarget', metadata: { name } })

/** Applies a SyncTarget in root:inv1 and returns the name its mailbox must have. */
async function applySyncTarget(name: string, inventorySpaceId: string): Promise<string> {
  const server = ['--server', `${stack.url}/clusters/root:inv1`]
  ok(await stack.kubectl([...server, 'apply', '-f', '-'], { input: syncTarget(name) }))
  const st = okJson<KubeObject>(
    await stack.kubectl([...server, 'get', 'synctarget', name, '-o', 'json'])
  )
  return mailboxName(inventorySpaceId, st.metadata.uid ?? '')
}

/** Polls root:espw with kubectl until the mailbox Workspace is there; fails after `ms`. */
async function mailboxAppears(name: string, ms = 15_000): Promise<KubeObject> {
  const deadline = Date.now() + ms
  for (;;) {
    const r = await stack.kubectl(['get', 'workspace', name, '-o', 'json'], {
      context: 'root:espw',
    })
    if (r.code === 0) return JSON.parse(r.stdout) as KubeObject
    if (Date.now() > deadline) throw new Error(`no mailbox ${name} in root:espw: ${r.stderr}`)
    await new Promise((res) => setTimeout(res, 250))
  }
}

describe('the relay started by npm start', () => {
  let inventory = ''

  it('records its pid in stack.json', async () => {
    const pid = await stack.relayPid()
    expect(pid).toBeGreaterThan(0)
    expect(() => process.kill(pid ?? 0, 0)).not.toThrow()
    ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('inv1') }))
    const ws = okJson<KubeObject & { spec?: { cluster?: string } }>(
      await stack.kubectl(['get', 'workspace', 'inv1', '-o', 'json'])
    )
    inventory = ws.spec?.cluster ?? ''
    expect(inventory).toBeTruthy()
  })

  it('makes the mailbox Workspace of a new SyncTarget', async () => {
    const name = await applySyncTarget('edge-1', inventory)
    const mailbox = await mailboxAppears(name)
    expect(mailbox.metadata.annotations?.['edge.kcp.io/sync-target-name']).toBe('edge-1')
  })

  it('is restarted after it is killed, and the new one makes the next mailbox', async () => {
    const old = await stack.killRelay()
    const fresh = await stack.relayRestarted(old)
    expect(fresh).not.toBe(old)
    expect((await stack.readInfo()).relay?.restarts).toBeGreaterThanOrEqual(1)
    const name = await applySyncTarget('edge-2', inventory)
    await mailboxAppears(name, 45_000)
  })
})
