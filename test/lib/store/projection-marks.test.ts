/**
 * Mailbox marks (lib/store/projection-marks.ts) on a real DynamoDB-protocol store: the content
 * version follows every manifest write, a shared manifest's included; the report mark moves with
 * every copy-state write that wrote something (riding in its log batch: no request more) and with
 * touchMailbox, and stays put otherwise; many mailboxes are read in one request per 50 (per 100
 * without the content); the marks go with the mailbox's manifest. Also getCopyStatesOf, which
 * reads the states of many mailboxes in one request per 100 copies.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { DesiredEntry, Manifest } from '../../../lib/store/projection-types.ts'
import { contentVersion } from '../../../lib/store/projection-types.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmEntry, NOW } from './projection-fixtures.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const key = (name: string) => ({ group: '', resource: 'configmaps', namespace: 'ns1', name })

async function write(store: TestStore, mailbox: string, desired: DesiredEntry[], share?: string) {
  const known = (await store.projections.getManifest(mailbox)) ?? null
  const [out] = await store.projections.writeManifests([
    {
      mailbox,
      w: {
        desired,
        expectedVersion: known?.version ?? null,
        known,
        now: NOW,
        ...(share ? { share } : {}),
      },
    },
  ])
  if (!out?.ok) throw out?.error
  return out.result.manifest
}

const uidOf = (m: Manifest, name: string) => m.entries.find((e) => e.name === name)?.uid ?? ''

describe('mailbox marks', () => {
  it('move with manifest writes, state writes and touches, and stay put otherwise', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const m1 = await write(t, 'mb1', [cmEntry('a'), cmEntry('b')])
    const first = (await t.projections.getMailboxMarks(['mb1', 'mb2'])).get('mb1')
    expect(first).toEqual({ content: m1.version })
    expect((await t.projections.getMailboxMarks(['mb2'])).get('mb2')).toEqual({})

    counter.reset()
    const [written] = await t.projections.putCopyStates('mb1', [
      { key: key('a'), state: { uid: uidOf(m1, 'a'), status: { x: 1 } }, expectedRv: null },
    ])
    // The mark rides in the log batch: 1 read, 1 rv, 1 put, 1 batch.
    expect(counter.snapshot()).toEqual({ GetItem: 1, UpdateItem: 1, PutItem: 1, BatchWriteItem: 1 })
    const afterState = (await t.projections.getMailboxMarks(['mb1'])).get('mb1')
    expect(afterState?.content).toBe(m1.version)
    expect(afterState?.reports).toBeDefined()

    // A write that takes nothing (a state of another copy, a conflict) moves nothing.
    await t.projections.putCopyStates('mb1', [
      { key: key('b'), state: { uid: 'not-the-copy', status: {} }, expectedRv: null },
      { key: key('a'), state: { uid: uidOf(m1, 'a'), status: { x: 2 } }, expectedRv: null },
    ])
    expect((await t.projections.getMailboxMarks(['mb1'])).get('mb1')).toEqual(afterState)

    const rv = written?.outcome === 'written' ? written.state.rv : 0
    await t.projections.putCopyStates('mb1', [
      { key: key('a'), state: { uid: uidOf(m1, 'a'), status: { x: 3 } }, expectedRv: rv },
    ])
    const second = (await t.projections.getMailboxMarks(['mb1'])).get('mb1')
    expect(second?.reports).not.toBe(afterState?.reports)

    await t.projections.touchMailbox('mb1')
    const touched = (await t.projections.getMailboxMarks(['mb1'])).get('mb1')
    expect(touched?.reports).not.toBe(second?.reports)
    await t.projections.touchMailbox('mb1')
    expect((await t.projections.getMailboxMarks(['mb1'])).get('mb1')?.reports).not.toBe(
      touched?.reports
    )

    const m2 = await write(t, 'mb1', [cmEntry('a'), cmEntry('b', 'ns1', { k: 'v' })])
    expect((await t.projections.getMailboxMarks(['mb1'])).get('mb1')?.content).toBe(m2.version)

    await t.projections.deleteManifest('mb1')
    expect((await t.projections.getMailboxMarks(['mb1'])).get('mb1')).toEqual({})
  })

  it('read many mailboxes per request, the content of a shared manifest included', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const names = Array.from({ length: 60 }, (_, i) => `mb${i}`)
    for (const mb of names.slice(0, 3)) await write(t, mb, [cmEntry('a')], 'k')
    const before = (await t.projections.getManifests(['mb0'])).get('mb0')
    counter.reset()
    const marks = await t.projections.getMailboxMarks(names)
    // 120 keys: two BatchGetItems, and one for the shared manifest's version.
    expect(counter.snapshot()).toEqual({ BatchGetItem: 3 })
    expect(marks.get('mb0')?.content).toBe(before ? contentVersion(before) : -1)
    expect(marks.get('mb59')).toEqual({})

    // A change of shared content moves every member's content version, no member written.
    await write(t, 'mb0', [cmEntry('a', 'ns1', { k: 'v2' })], 'k')
    const shared = (await t.projections.getManifests(['mb1'])).get('mb1')
    const now = await t.projections.getMailboxMarks(['mb1'])
    expect(now.get('mb1')?.content).toBe(shared ? contentVersion(shared) : -1)
    expect(now.get('mb1')?.content).toBeGreaterThan(marks.get('mb1')?.content ?? 0)

    counter.reset()
    const reports = await t.projections.getMailboxMarks(names, { content: false })
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    expect(reports.get('mb0')).toEqual({})
  })

  it('reads the states of many mailboxes in one request per 100 copies', async () => {
    const counter = createRequestCounter()
    t = await createTestStore({ counter })
    const uids = new Map<string, string>()
    for (const mb of ['mb1', 'mb2', 'mb3']) {
      const m = await write(t, mb, [cmEntry('a')])
      uids.set(mb, uidOf(m, 'a'))
      await t.projections.putCopyStates(mb, [
        { key: key('a'), state: { uid: uids.get(mb) ?? '', status: { at: mb } }, expectedRv: null },
      ])
    }
    counter.reset()
    const states = await t.projections.getCopyStatesOf(
      ['mb1', 'mb2', 'mb3', 'mb4'].map((mailbox) => ({ mailbox, keys: [key('a')] }))
    )
    expect(counter.snapshot()).toEqual({ BatchGetItem: 1 })
    expect([...states.keys()].sort()).toEqual(['mb1', 'mb2', 'mb3'])
    expect(states.get('mb2')?.get('/configmaps/ns1/a')?.status).toEqual({ at: 'mb2' })
  })
})
