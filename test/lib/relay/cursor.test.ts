import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CURSOR_NS,
  type CursorStore,
  createCommitTracker,
  createKvCursorStore,
} from '../../../lib/relay/cursor.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

function deferred() {
  let resolve: (ok: boolean) => void = () => {}
  let reject: (e: unknown) => void = () => {}
  const promise = new Promise<boolean>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('relay cursors', () => {
  let t: TestStore
  let cursors: CursorStore
  beforeAll(async () => {
    t = await createTestStore()
    cursors = createKvCursorStore(t.kv)
  })
  afterAll(() => t.close())

  it('loads what was saved, per resource, and nothing for an unknown resource', async () => {
    expect(await cursors.load('locations')).toBeUndefined()
    await cursors.save('locations', '41')
    await cursors.save('locations', '42')
    await cursors.save('workspaces', '7')
    expect(await cursors.load('locations')).toBe('42')
    expect(await cursors.load('workspaces')).toBe('7')
    expect((await t.kv.list(CURSOR_NS)).map((e) => e.key)).toEqual(['locations', 'workspaces'])
  })

  it('ignores a malformed stored cursor', async () => {
    await t.kv.put(CURSOR_NS, 'broken', { resourceVersion: 12 })
    expect(await cursors.load('broken')).toBeUndefined()
    await t.kv.put(CURSOR_NS, 'broken', 'nonsense')
    expect(await cursors.load('broken')).toBeUndefined()
  })

  it('saves a resourceVersion only after it and everything before it was delivered', async () => {
    const tracker = createCommitTracker('synctargets', cursors)
    const [a, b, c] = [deferred(), deferred(), deferred()]
    tracker.commit('10', a.promise)
    tracker.commit('11', b.promise)
    tracker.commit('12', c.promise)
    b.resolve(true)
    await new Promise((r) => setImmediate(r))
    expect(await cursors.load('synctargets')).toBeUndefined()
    a.resolve(true)
    await new Promise((r) => setImmediate(r))
    await tracker.saving()
    expect(await cursors.load('synctargets')).toBe('11')
    c.resolve(true)
    await tracker.settled()
    expect(await cursors.load('synctargets')).toBe('12')
    expect(tracker.saved()).toBe('12')
  })

  it('never passes an undelivered or failed event', async () => {
    const tracker = createCommitTracker('edgeplacements', cursors)
    tracker.commit('5', Promise.resolve(true))
    tracker.commit('6', Promise.resolve(false))
    tracker.commit('7', Promise.resolve(true))
    const failed = deferred()
    tracker.commit('8', failed.promise)
    failed.reject(new Error('lost'))
    await tracker.settled()
    expect(await cursors.load('edgeplacements')).toBe('5')
  })

  it('survives a failing save and saves again on the next delivery', async () => {
    let fail = true
    const flaky: CursorStore = {
      load: (r) => cursors.load(r),
      save: (r, rv) => (fail ? Promise.reject(new Error('kv down')) : cursors.save(r, rv)),
    }
    const tracker = createCommitTracker('singleplacementslices', flaky)
    tracker.commit('3', Promise.resolve(true))
    await tracker.settled()
    expect(tracker.saved()).toBeUndefined()
    fail = false
    tracker.commit('4', Promise.resolve(true))
    await tracker.settled()
    expect(await cursors.load('singleplacementslices')).toBe('4')
  })

  it('does not save the same resourceVersion twice in a row (idle bookmarks)', async () => {
    const saves: string[] = []
    const counting: CursorStore = {
      load: (r) => cursors.load(r),
      save: async (r, rv) => {
        saves.push(rv)
        await cursors.save(r, rv)
      },
    }
    const tracker = createCommitTracker('customizers', counting)
    for (const rv of ['20', '20', '20', '21', '21']) {
      tracker.commit(rv, Promise.resolve(true))
      await tracker.settled()
    }
    expect(saves).toEqual(['20', '21'])
  })
})
