/**
 * Reads by name gathered per turn (lib/placement/coalesced-gets.ts): names asked for together go
 * out as one read per group, each name once; later askers share the answer; a name not found is
 * undefined; a failed read fails every asker of it and stays failed.
 */
import { describe, expect, it } from 'vitest'
import { coalescedGets } from '../../../lib/placement/coalesced-gets.ts'

function harness(fail?: (group: string) => boolean) {
  const reads: string[] = []
  let pending: (() => void)[] = []
  const get = coalescedGets<string>(
    async (group, names) => {
      reads.push(`${group}:${names.join(',')}`)
      if (fail?.(group)) throw new Error(`no ${group}`)
      return new Map(names.filter((n) => n !== 'gone').map((n) => [n, `${group}/${n}`]))
    },
    (fn) => pending.push(fn)
  )
  const turn = () => {
    const now = pending
    pending = []
    for (const fn of now) fn()
  }
  return { get, reads, turn }
}

describe('coalesced gets', () => {
  it('gather the names asked for in one turn into one read per group, each name once', async () => {
    const h = harness()
    const asked = [h.get('inv1', 'a'), h.get('inv1', 'b'), h.get('inv2', 'a'), h.get('inv1', 'a')]
    expect(h.reads).toEqual([])
    h.turn()
    expect(await Promise.all(asked)).toEqual(['inv1/a', 'inv1/b', 'inv2/a', 'inv1/a'])
    expect(h.reads).toEqual(['inv1:a,b', 'inv2:a'])
  })

  it('answer later askers from the first read, and read only names not asked before', async () => {
    const h = harness()
    const first = h.get('inv1', 'a')
    h.turn()
    await first
    const again = [h.get('inv1', 'a'), h.get('inv1', 'c'), h.get('inv1', 'gone')]
    h.turn()
    expect(await Promise.all(again)).toEqual(['inv1/a', 'inv1/c', undefined])
    expect(h.reads).toEqual(['inv1:a', 'inv1:c,gone'])
  })

  it('fail every asker of a failed read, for the batch, and no other group', async () => {
    const h = harness((g) => g === 'bad')
    const bad = [h.get('bad', 'a'), h.get('bad', 'b')]
    const good = h.get('inv1', 'a')
    h.turn()
    await expect(bad[0]).rejects.toThrow('no bad')
    await expect(bad[1]).rejects.toThrow('no bad')
    expect(await good).toBe('inv1/a')
    await expect(h.get('bad', 'a')).rejects.toThrow('no bad')
    expect(h.reads).toEqual(['bad:a,b', 'inv1:a'])
  })
})
