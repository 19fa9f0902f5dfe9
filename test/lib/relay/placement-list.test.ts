import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { createPlacementList } from '../../../lib/relay/placement-list.ts'

const ep = (space: string, name: string, generation = 1): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name, generation, annotations: { 'kcp.io/cluster': space } },
})

const names = (items: KubeObject[]) =>
  items.map((o) => `${o.metadata.annotations?.['kcp.io/cluster']}/${o.metadata.name}`).sort()

/** A hub list that answers `items` when released, counting its reads. */
function hubList(initial: KubeObject[]) {
  let items = initial
  let reads = 0
  let release: (() => void) | undefined
  let failNext = false
  return {
    read: async () => {
      reads++
      const answer = items
      await new Promise<void>((r) => {
        release = r
      })
      if (failNext) {
        failNext = false
        throw new Error('hub down')
      }
      return answer
    },
    set: (next: KubeObject[]) => {
      items = next
    },
    release: () => release?.(),
    failOnce: () => {
      failNext = true
    },
    reads: () => reads,
  }
}

describe('the placement list of the relay', () => {
  it('reads once for the callers of a burst and serves them until it is maxAgeMs old', async () => {
    let t = 1000
    const hub = hubList([ep('s1', 'a'), ep('s2', 'b')])
    const list = createPlacementList(hub.read, { maxAgeMs: 5000, now: () => t })
    const burst = Promise.all([list.list(), list.list(), list.list()])
    hub.release()
    for (const got of await burst) expect(names(got)).toEqual(['s1/a', 's2/b'])
    t += 4999
    expect(names(await list.list())).toEqual(['s1/a', 's2/b'])
    expect(hub.reads()).toBe(1)
    hub.set([ep('s1', 'a')])
    t += 1
    const again = list.list()
    hub.release()
    expect(names(await again)).toEqual(['s1/a'])
    expect(hub.reads()).toBe(2)
  })

  it('is kept current by EdgePlacement events, also those arriving while a read is out', async () => {
    const hub = hubList([ep('s1', 'a'), ep('s1', 'gone')])
    const list = createPlacementList(hub.read, { maxAgeMs: 60_000 })
    const first = list.list()
    // the read began before these: its answer misses them, and they are applied over it
    list.observe('ADDED', ep('s3', 'new'))
    list.observe('DELETED', ep('s1', 'gone'))
    hub.release()
    expect(names(await first)).toEqual(['s1/a', 's3/new'])
    list.observe('MODIFIED', ep('s1', 'a', 2))
    list.observe('ADDED', ep('s4', 'later'))
    list.observe('BOOKMARK', ep('s5', 'nothing'))
    const got = await list.list()
    expect(names(got)).toEqual(['s1/a', 's3/new', 's4/later'])
    expect(got.find((o) => o.metadata.name === 'a')?.metadata.generation).toBe(2)
    expect(hub.reads()).toBe(1)
  })

  it('fails the callers of a failed read, and the next caller reads again', async () => {
    const hub = hubList([ep('s1', 'a')])
    const list = createPlacementList(hub.read)
    hub.failOnce()
    const failed = Promise.all([list.list(), list.list()])
    hub.release()
    await expect(failed).rejects.toThrow('hub down')
    const next = list.list()
    hub.release()
    expect(names(await next)).toEqual(['s1/a'])
    expect(hub.reads()).toBe(2)
  })
})
