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
  it('reads the spaces, manifests and memories of a chunk of keys in four requests', async () => {
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
    // Keys 0-2 came in one chunk: one read of their spaces, then their manifests' heads (a mailbox
    // that is no member is then read in full) and memories.
    expect(counter.snapshot()).toEqual({ BatchGetItem: 4 })
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
    expect(counter.snapshot()).toEqual({ BatchGetItem: 4 })
  })

  it('reads a member holding every copy through its shared manifest without its own body', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const keys = ['inv-mb-a', 'inv-mb-b', 'inv-mb-c']
    const ids: string[] = []
    for (const key of keys) ids.push((await ensureSpace(t.kv, mailboxSpacePath(key))).id)
    const write = { desired: [cm], expectedVersion: null, now: new Date(), share: 'p' }
    await t.projections.writeManifests(ids.slice(0, 2).map((mailbox) => ({ mailbox, w: write })))
    // c holds a tombstone of its own besides: it is read in full.
    await t.projections.writeManifest(ids[2]!, {
      ...write,
      desired: [
        cm,
        {
          ...cm,
          name: 'gone',
          removing: '2030-01-01T00:00:00Z',
          body: { ...cm.body, metadata: { name: 'gone' } },
        },
      ],
    })
    const full = await t.projections.getManifests(ids)
    counter.reset()
    const reads = mailboxReads(t, keys)
    const [a, b, c] = [
      await reads.read(keys[0]!),
      await reads.read(keys[1]!),
      await reads.read(keys[2]!),
    ]
    expect([a.viaShared, b.viaShared, c.viaShared]).toEqual([true, true, false])
    // The content is the shared manifest's, the version and membership the mailbox's own.
    for (const [i, r] of [a, b].entries()) {
      const whole = full.get(ids[i]!)!
      expect(r.manifest?.version).toBe(whole.version)
      expect(r.manifest?.shared).toEqual(whole.shared)
      const content = (m: typeof whole) =>
        m.entries.map(({ name, hash, version }) => [name, hash, version])
      expect(content(r.manifest!)).toEqual(content(whole))
    }
    expect(c.manifest).toEqual(full.get(ids[2]!))
    // Spaces, heads, a's and b's shared manifest, c in full and then its shared manifest, memories.
    expect(counter.snapshot()).toEqual({ BatchGetItem: 6 })
    // In full on asking: the mailbox's own copies, uids and all; asked in one turn, read together.
    counter.reset()
    const wholes = await Promise.all([reads.readFull(ids[0]!), reads.readFull(ids[1]!)])
    expect(wholes).toEqual([full.get(ids[0]!), full.get(ids[1]!)])
    // Both manifests, then their shared manifest.
    expect(counter.snapshot()).toEqual({ BatchGetItem: 2 })
  })

  it('reads a key outside the batch on its own', async () => {
    t = await createTestStore()
    const id = (await ensureSpace(t.kv, mailboxSpacePath('other'))).id
    const reads = mailboxReads(t, ['x', 'y'])
    expect((await reads.read('other')).space?.id).toBe(id)
  })
})
