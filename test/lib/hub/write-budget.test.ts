/**
 * An update that lifts the last finalizer of an object being deleted (lib/hub/write.ts) is two
 * writes, the update and the removal: within a strict subrequest budget both happen or neither
 * starts. Tried at every budget from one that fits nothing to one that fits everything: the object
 * is either gone or still waits on its finalizer, never stored with a deletionTimestamp and
 * nothing left to wait for (which no one would ever remove); and nested reservations carve from
 * the outer one instead of asking the invocation for the same room twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInvocation } from '../../../lib/budget/frames.ts'
import { createHubClient } from '../../../lib/hub/client.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const CMS = { group: '', version: 'v1', resource: 'configmaps' }
const HOLD = 'test.edgeplane.io/hold'

describe('an update deciding a removal, within a budget', () => {
  it('removes the object or leaves it waiting, at every budget', async () => {
    const client = createHubClient(hub.deps, { fieldManager: 'test' })
    const outcomes = new Set<string>()
    for (let budget = 4; budget <= 40; budget++) {
      const name = `held-${budget}`
      await client.create('root', CMS, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'default', finalizers: [HOLD] },
      })
      await client.delete('root', CMS, name, { namespace: 'default' })
      const held = await client.get('root', CMS, name, 'default')
      expect(held?.metadata.deletionTimestamp).toBeDefined()
      let refused = false
      try {
        await runInvocation('test', { subrequests: budget, mode: 'strict' }, async () => {
          const current = await client.get('root', CMS, name, 'default')
          if (!current) throw new Error('gone before the update')
          await client.update('root', CMS, {
            ...current,
            metadata: { ...current.metadata, finalizers: [] },
          })
        })
      } catch (e) {
        expect((e as { code?: number }).code).toBe(429)
        refused = true
      }
      const after = await client.get('root', CMS, name, 'default')
      if (after) expect(after.metadata.finalizers, `budget ${budget}`).toEqual([HOLD])
      else expect(refused, `budget ${budget}`).toBe(false)
      outcomes.add(after ? 'waiting' : 'removed')
    }
    expect([...outcomes].sort()).toEqual(['removed', 'waiting'])
  })
})
