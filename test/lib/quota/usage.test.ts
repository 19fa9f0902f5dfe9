/**
 * Usage counters (lib/quota/usage.ts): a change applies to the value it replaces, never below 0;
 * an absent counter is made by counting, once, however many writers race to make it; a refusal
 * writes nothing; a decrease of an absent counter makes none; racing changes lose no count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyChange, changeUsage, type Usage } from '../../../lib/quota/usage.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

let hub: TestHub
beforeAll(async () => {
  hub = await createTestHub()
})
afterAll(() => hub.close())

const up = { collection: '/configmaps', delta: 1 as const }
const down = { collection: '/configmaps', delta: -1 as const }
const at = (key: string) => ({ ns: 'quota-usage/test', key })
const read = async (key: string) => (await hub.deps.kv.get<Usage>('quota-usage/test', key))?.value

describe('a usage change', () => {
  it('moves the total and the resource, never below 0, dropping emptied resources', () => {
    const u = { objects: 3, resources: { '/configmaps': 1, 'apps/deployments': 2 } }
    expect(applyChange(u, up)).toEqual({
      objects: 4,
      resources: { '/configmaps': 2, 'apps/deployments': 2 },
    })
    expect(applyChange(u, down)).toEqual({ objects: 2, resources: { 'apps/deployments': 2 } })
    expect(applyChange({ objects: 0, resources: {} }, down)).toEqual({ objects: 0, resources: {} })
  })
})

describe('a counter', () => {
  it('is made by counting once, however many writers race, and loses no change', async () => {
    const count = async () => ({ objects: 10, resources: { '/configmaps': 10 } })
    await Promise.all(
      Array.from({ length: 16 }, () => changeUsage(hub.deps, at('race'), up, { count }))
    )
    expect(await read('race')).toEqual({ objects: 26, resources: { '/configmaps': 26 } })
    // racers that lost the making read the winner's count: one count kept, each change on it
    await Promise.all(
      Array.from({ length: 6 }, () => changeUsage(hub.deps, at('race'), down, { count }))
    )
    expect(await read('race')).toEqual({ objects: 20, resources: { '/configmaps': 20 } })
  })

  it('writes nothing when the change is refused', async () => {
    const count = async () => ({ objects: 1, resources: {} })
    await changeUsage(hub.deps, at('refused'), up, { count })
    const refuse = () => {
      throw new Error('refused')
    }
    await expect(
      changeUsage(hub.deps, at('refused'), up, { count, admit: refuse })
    ).rejects.toThrow('refused')
    expect(await read('refused')).toEqual({ objects: 2, resources: { '/configmaps': 1 } })
  })

  it('is not made by a decrease', async () => {
    const count = async () => ({ objects: 5, resources: {} })
    expect(await changeUsage(hub.deps, at('absent'), down, { count })).toBe(false)
    expect(await read('absent')).toBeUndefined()
  })
})
