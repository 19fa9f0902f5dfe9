/** The departures record the deletion lifecycle keeps (lib/deletion/departures.ts). */
import { afterEach, describe, expect, it } from 'vitest'
import {
  addDeparture,
  clearDepartures,
  DEPARTURES_NS,
  readDepartures,
  removeDeparture,
} from '../../../lib/deletion/departures.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

describe('departures record', () => {
  let t: TestStore | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  it('adds and removes mailboxes per space; an emptied record stays until cleared', async () => {
    t = await createTestStore()
    const listed = async (space: string) => (await readDepartures(t!.kv, space)).mailboxes
    await addDeparture(t.kv, ['ws1', 'ws2'], 'mb-b')
    await addDeparture(t.kv, ['ws1'], 'mb-a')
    await addDeparture(t.kv, ['ws1'], 'mb-a')
    expect(await listed('ws1')).toEqual(['mb-a', 'mb-b'])
    expect((await t.kv.get(DEPARTURES_NS, 'ws1'))?.version).toBe(2)
    await removeDeparture(t.kv, ['ws1', 'ws2'], 'mb-b')
    expect(await listed('ws1')).toEqual(['mb-a'])
    expect(await readDepartures(t.kv, 'ws2')).toEqual({ mailboxes: [], recorded: true })
    expect(await readDepartures(t.kv, 'ws3')).toEqual({ mailboxes: [], recorded: false })
    expect(await clearDepartures(t.kv, 'ws1')).toBe(false)
    expect(await clearDepartures(t.kv, 'ws2')).toBe(true)
    expect(await t.kv.get(DEPARTURES_NS, 'ws2')).toBeUndefined()
  })
})
