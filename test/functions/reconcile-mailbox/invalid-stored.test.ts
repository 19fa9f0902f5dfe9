/**
 * The mailbox step over a SyncTarget stored invalid (straight to the store, past the API): it is
 * reported (one warning naming the step, its key and the issue's path) and its mailbox left as it
 * is — not created, and an existing one not deleted — while a valid sibling SyncTarget gets its
 * mailbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reconcileMailbox } from '../../../functions/reconcile-mailbox/reconcile.ts'
import { ESPW, SYNC_TARGETS, WORKSPACES } from '../../../lib/apis/gvr.ts'
import {
  invalidReports,
  recorder,
  storeRaw,
  type Warning,
} from '../reconcile-summarize/raw-store.ts'
import { createWorld, IMW, type World } from '../reconcile-summarize/world.ts'

let w: World
let imw = ''
const warnings: Warning[] = []
const run = (key: string) =>
  reconcileMailbox({ client: w.client, kv: w.hub.deps.kv, log: recorder(warnings) }, key)

beforeAll(async () => {
  w = await createWorld()
  imw = (await w.client.space(IMW)).id
  await storeRaw(
    w.hub,
    { spaceId: imw, group: 'edge.kcp.io', resource: 'synctargets' },
    {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SyncTarget',
      metadata: { name: 'bad', uid: '0d7f0a3c-1111-4222-8333-444455556666' },
      spec: { unschedulable: 'yes' },
    }
  )
}, 120_000)
afterAll(() => w?.close())

describe('mailbox over an invalid stored SyncTarget', () => {
  it('reports it and makes no mailbox, while the valid sibling gets one', async () => {
    expect(await run(`${imw}-mb-0d7f0a3c-1111-4222-8333-444455556666`)).toEqual({
      outcome: 'invalid SyncTarget: skipped',
    })
    expect(
      await w.client.get(ESPW, WORKSPACES, `${imw}-mb-0d7f0a3c-1111-4222-8333-444455556666`)
    ).toBeUndefined()
    const reports = invalidReports(warnings, 'mailbox')
    expect(reports).toHaveLength(1)
    expect(reports[0]?.fields).toMatchObject({
      kind: 'SyncTarget',
      key: `${imw}/bad`,
      issues: [{ path: 'spec.unschedulable' }],
    })
    const e1 = await w.client.get(IMW, SYNC_TARGETS, 'e1')
    const good = `${imw}-mb-${e1?.metadata.uid}`
    expect(await run(good)).toEqual({ outcome: 'created' })
    expect(await w.client.get(ESPW, WORKSPACES, good)).toBeDefined()
  })

  it('leaves the mailbox of a SyncTarget that turned invalid', async () => {
    const e2 = await w.client.get(IMW, SYNC_TARGETS, 'e2')
    const key = `${imw}-mb-${e2?.metadata.uid}`
    expect(await run(key)).toEqual({ outcome: 'created' })
    await storeRaw(
      w.hub,
      { spaceId: imw, group: 'edge.kcp.io', resource: 'synctargets' },
      {
        ...(e2 as NonNullable<typeof e2>),
        spec: { cells: 'all' },
      }
    )
    expect(await run(key)).toEqual({ outcome: 'invalid SyncTarget: skipped' })
    expect(await w.client.get(ESPW, WORKSPACES, key)).toBeDefined()
  })
})
