import { afterEach, describe, expect, it } from 'vitest'
import { mailboxReads } from '../../../functions/reconcile-translate/mailbox-reads.ts'
import { VERSION_MEMORY_NS } from '../../../functions/reconcile-translate/version-memory.ts'
import { ensureSpace, markSpaceTerminating } from '../../../lib/hub/spaces.ts'
import { mailboxSpacePath } from '../../../lib/reconcile/keys.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const cm = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name: 'a',
  body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } },
}

describe('mailboxReads', () => {
  it('reads the spaces, manifests and memories of a chunk of keys in three requests', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const keys = Array.from({ length: 5 }, (_, i) => `inv-mb-${i}`)
    const ids: string[] = []
    for (const key of keys.slice(0, 4))
      ids.push((await ensureSpace(t.kv, mailboxSpacePath(key))).id)
    await t.projections.writeManifest(ids[0]!, {
      desired: [cm],
      expectedVersion: null,
      now: new Date(),
    })
    await t.kv.put(VERSION_MEMORY_NS, ids[2]!, { 'apps.test': 'v2' })
    const gone = await ensureSpace(t.kv, mailboxSpacePath(keys[3]!))
    await markSpaceTerminating(t.kv, gone)
    counter.reset()
    const reads = mailboxReads(t, keys, 3)
    const first = await reads.read(keys[0]!)
    expect(first.space?.id).toBe(ids[0])
    expect(first.manifest?.entries.map((e) => e.name)).toEqual(['a'])
    expect((await reads.read(keys[1]!)).manifest).toBeUndefined()
    const third = await reads.read(keys[2]!)
    expect(third.space?.id).toBe(ids[2])
    expect(third.memory).toMatchObject({ value: { 'apps.test': 'v2' }, version: 1 })
    expect(first.memory).toBeUndefined()
    // Keys 0-2 came in one chunk: one read of their spaces, then their manifests and memories.
    expect(counter.snapshot()).toEqual({ BatchGetItem: 3 })
    counter.reset()
    // The next chunk: a terminating space (no manifest read for it) and one that does not exist.
    const terminating = await reads.read(keys[3]!)
    expect(terminating.space?.phase).toBe('Terminating')
    expect(terminating.manifest).toBeUndefined()
    expect((await reads.read(keys[4]!)).space).toBeUndefined()
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    // A second read of a key is fresh: it sees a write made since.
    await t.projections.writeManifest(ids[1]!, {
      desired: [cm],
      expectedVersion: null,
      now: new Date(),
    })
    counter.reset()
    expect((await reads.read(keys[1]!)).manifest?.entries).toHaveLength(1)
    expect(counter.snapshot()).toEqual({ BatchGetItem: 3 })
  })

  it('reads a key outside the batch on its own', async () => {
    t = await createTestStore()
    const id = (await ensureSpace(t.kv, mailboxSpacePath('other'))).id
    const reads = mailboxReads(t, ['x', 'y'])
    expect((await reads.read('other')).space?.id).toBe(id)
  })
})
