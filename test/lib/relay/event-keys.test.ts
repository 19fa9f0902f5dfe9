import { describe, expect, it } from 'vitest'
import { MAILBOX_STEP as WORKER_MAILBOX_STEP } from '../../../functions/reconcile-mailbox/controller.ts'
import { mailboxOf as workerMailboxOf } from '../../../functions/reconcile-mailbox/names.ts'
import { WHERE_STEP as WORKER_WHERE_STEP } from '../../../functions/reconcile-where/controller.ts'
import { whereKeyOf as workerWhereKeyOf } from '../../../functions/reconcile-where/names.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  type EventKeysDeps,
  isMailboxName,
  keysForEvent,
  MAILBOX_STEP,
  mailboxOf,
  WHERE_STEP,
  whereKeyOf,
} from '../../../lib/relay/event-keys.ts'

const UID = '0a1b2c3d-1111-2222-3333-444455556666'

function obj(kind: string, name: string, cluster?: string, uid?: string): KubeObject {
  return {
    apiVersion: 'edge.kcp.io/v1alpha1',
    kind,
    metadata: {
      name,
      ...(uid ? { uid } : {}),
      ...(cluster ? { annotations: { 'kcp.io/cluster': cluster } } : {}),
    },
  }
}

function deps(placements: KubeObject[] = []): EventKeysDeps & { listed: number } {
  const d = {
    espwSpaceId: 'espw1',
    listed: 0,
    listEdgePlacements: async () => {
      d.listed += 1
      return placements
    },
  }
  return d
}

const placements = [
  obj('EdgePlacement', 'p2', 'ws1'),
  obj('EdgePlacement', 'p1', 'ws1'),
  obj('EdgePlacement', 'p1', 'ws2'),
  obj('EdgePlacement', 'p1', 'ws1'),
  obj('EdgePlacement', 'orphan'),
]

describe('keysForEvent', () => {
  it('maps a SyncTarget to its mailbox and every where-key', async () => {
    const keys = await keysForEvent(
      'synctargets',
      { type: 'MODIFIED', object: obj('SyncTarget', 'st', 'inv1', UID) },
      deps(placements)
    )
    expect(keys).toEqual([
      { step: MAILBOX_STEP, key: `inv1-mb-${UID}` },
      { step: WHERE_STEP, key: 'ws1/p1' },
      { step: WHERE_STEP, key: 'ws1/p2' },
      { step: WHERE_STEP, key: 'ws2/p1' },
    ])
  })

  it('maps a SyncTarget without uid to where-keys only', async () => {
    const keys = await keysForEvent(
      'synctargets',
      { type: 'DELETED', object: obj('SyncTarget', 'st', 'inv1') },
      deps([obj('EdgePlacement', 'p', 'ws')])
    )
    expect(keys).toEqual([{ step: WHERE_STEP, key: 'ws/p' }])
  })

  it('maps a Location to every where-key', async () => {
    const d = deps(placements)
    const keys = await keysForEvent('locations', { type: 'ADDED', object: obj('Location', 'l') }, d)
    expect(keys.map((k) => k.key)).toEqual(['ws1/p1', 'ws1/p2', 'ws2/p1'])
    expect(d.listed).toBe(1)
  })

  it('maps EdgePlacements and SinglePlacementSlices to their own where-key', async () => {
    const d = deps(placements)
    for (const resource of ['edgeplacements', 'singleplacementslices']) {
      const keys = await keysForEvent(resource, { type: 'ADDED', object: obj('X', 'p', 'ws9') }, d)
      expect(keys).toEqual([{ step: WHERE_STEP, key: 'ws9/p' }])
    }
    expect(
      await keysForEvent('edgeplacements', { type: 'ADDED', object: obj('X', 'p') }, d)
    ).toEqual([])
    expect(d.listed).toBe(0)
  })

  it('maps only mailbox-named Workspaces in the espw space', async () => {
    const d = deps()
    const mb = `inv1-mb-${UID}`
    const ws = (name: string, cluster: string) => ({
      type: 'DELETED',
      object: obj('Workspace', name, cluster),
    })
    expect(await keysForEvent('workspaces', ws(mb, 'espw1'), d)).toEqual([
      { step: MAILBOX_STEP, key: mb },
    ])
    expect(await keysForEvent('workspaces', ws(mb, 'other'), d)).toEqual([])
    expect(await keysForEvent('workspaces', ws('plain', 'espw1'), d)).toEqual([])
  })

  it('ignores bookmarks, errors, unknown resources and objects without metadata', async () => {
    const d = deps(placements)
    const st = obj('SyncTarget', 'st', 'inv1', UID)
    expect(await keysForEvent('synctargets', { type: 'BOOKMARK', object: st }, d)).toEqual([])
    expect(await keysForEvent('synctargets', { type: 'ERROR', object: st }, d)).toEqual([])
    expect(await keysForEvent('pods', { type: 'ADDED', object: st }, d)).toEqual([])
    const bare = { apiVersion: 'v1', kind: 'Status' } as unknown as KubeObject
    expect(await keysForEvent('locations', { type: 'ADDED', object: bare }, d)).toEqual([])
    expect(d.listed).toBe(0)
  })

  it('propagates a failure to list placements', async () => {
    const d: EventKeysDeps = {
      espwSpaceId: 'e',
      listEdgePlacements: () => Promise.reject(new Error('down')),
    }
    await expect(
      keysForEvent('locations', { type: 'ADDED', object: obj('Location', 'l') }, d)
    ).rejects.toThrow('down')
  })

  it('agrees with the Worker on step names and key formats', () => {
    expect([MAILBOX_STEP, WHERE_STEP]).toEqual([WORKER_MAILBOX_STEP, WORKER_WHERE_STEP])
    const st = obj('SyncTarget', 'st', 'inv1', UID)
    expect(mailboxOf(st)).toBe(workerMailboxOf(st))
    expect(isMailboxName(mailboxOf(st) ?? '')).toBe(true)
    expect(isMailboxName('inv1-mb-not-a-uid')).toBe(false)
    const ep = obj('EdgePlacement', 'p.q', 'ws1')
    expect(whereKeyOf(ep)).toBe(workerWhereKeyOf(ep))
  })
})
