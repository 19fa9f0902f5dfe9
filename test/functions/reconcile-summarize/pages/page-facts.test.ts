/**
 * What a page keeps (pages/page-facts.ts) and how it is stored (pages/page-codec.ts): copies alike
 * at many mailboxes are kept once, run-length encoded; a copy keeps what the summaries compare
 * (the state's uid as "the entry's copy" or "another"), not what names one copy; entries of
 * another space are not held; what the removals read is kept per mailbox; an unread mailbox holds
 * nothing. Stored, a page reads back the same; a value of another shape or format is no page, and
 * a page too large for one value is refused before anything is written.
 */
import { describe, expect, it } from 'vitest'
import {
  decodePage,
  encodePage,
  PageTooLarge,
} from '../../../../functions/reconcile-summarize/pages/page-codec.ts'
import {
  KEPT_UID,
  OTHER_UID,
  pageFacts,
  runs,
  unrun,
} from '../../../../functions/reconcile-summarize/pages/page-facts.ts'
import type { MailboxView } from '../../../../functions/reconcile-summarize/reads.ts'
import type { ManifestEntry, StoredCopyState } from '../../../../lib/store/projection-types.ts'

const entry = (name: string, uid: string, more: Partial<ManifestEntry> = {}): ManifestEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  hash: `h-${name}`,
  specHash: `s-${name}`,
  rv: Math.floor(Math.random() * 1000),
  uid,
  created: '2030-01-01T00:00:00Z',
  generation: 1,
  sources: [{ space: 'ws', placements: ['p'] }],
  ...more,
})
const k = (name: string) => `/configmaps/ns/${name}`

const view = (id: string, entries: ManifestEntry[]): MailboxView => ({
  space: { id, path: `root:espw:${id}`, phase: 'Ready' },
  version: 7,
  entries: new Map(entries.map((e) => [k(e.name), e])),
})

function facts() {
  const mailboxes = ['m1', 'm2', 'm3', 'm4']
  const views = [
    view('s1', [entry('a', 'u1'), entry('b', 'u2')]),
    view('s2', [entry('a', 'u3'), entry('b', 'u4', { removing: '2030-01-02T00:00:00Z' })]),
    view('s3', [entry('a', 'u5', { sources: [{ space: 'other', placements: ['q'] }] })]),
    undefined,
  ]
  const state = (uid: string): StoredCopyState => ({ uid, status: { ok: true }, rv: 9 })
  const states = new Map([
    ['s1', new Map([[k('a'), state('u1')]])],
    ['s2', new Map([[k('a'), state('an-earlier-copy')]])],
  ])
  return pageFacts({
    ask: 'ask',
    readAt: 1,
    epochs: { manifests: 3 },
    spaceId: 'ws',
    asks: mailboxes.map((mailbox) => ({ mailbox, keys: [k('a')], upsync: false })),
    views,
    reports: ['1.0', undefined, undefined, undefined],
    states,
  })
}

describe('page facts', () => {
  it('run-length encodes, and decodes to the length asked', () => {
    expect(runs([2, 2, 2, 0, 1, 1])).toEqual([2, 3, 0, 1, 1, 2])
    expect([...unrun(runs([2, 2, 2, 0, 1, 1]), 6)]).toEqual([2, 2, 2, 0, 1, 1])
    expect([...unrun([5, 2], 4)]).toEqual([5, 5, 0, 0])
    expect(runs([])).toEqual([])
  })

  it('keeps each distinct copy once, with what the summaries compare', () => {
    const f = facts()
    expect(f.mailboxes).toEqual(['m1', 'm2', 'm3', 'm4'])
    expect(f.spaces).toEqual(['s1', 's2', 's3', null])
    expect(f.content).toEqual([7, 7, 7, null])
    expect(f.reports).toEqual(['1.0', null, null, null])
    const ids = [...unrun(f.pairs[k('a')] ?? [], 4)]
    // m1: its copy and state; m2: another state; m3: another space's copy (none); m4: unread
    expect(ids[2]).toBe(0)
    expect(ids[3]).toBe(0)
    const [m1, m2] = [f.copies[ids[0] ?? 0], f.copies[ids[1] ?? 0]]
    expect(m1?.entry).toMatchObject({ name: 'a', uid: KEPT_UID, rv: 0, created: '' })
    expect(m1?.state).toMatchObject({ uid: KEPT_UID, rv: 0, status: { ok: true } })
    expect(m2?.state?.uid).toBe(OTHER_UID)
    // The two entries differ only in what names one copy: kept as one.
    expect(m1?.entry).toEqual(m2?.entry)
  })

  it('keeps what the removals read per mailbox', () => {
    const f = facts()
    const holds = [...unrun(f.holdOf, 4)].map((i) => f.holds[i])
    expect(holds[0]).toEqual({ held: [k('a'), k('b')], removing: [] })
    expect(holds[1]).toEqual({
      held: [k('a'), k('b')],
      removing: [
        {
          key: { group: '', resource: 'configmaps', namespace: 'ns', name: 'b' },
          placements: ['p'],
        },
      ],
    })
    expect(holds[2]).toEqual({ held: [], removing: [] })
  })
})

describe('the stored page', () => {
  it('reads back what was stored', async () => {
    const f = facts()
    const stored = await encodePage(f)
    expect(await decodePage(JSON.parse(JSON.stringify(stored)))).toEqual(f)
  })

  it('is no page when it is of another shape or format', async () => {
    expect(await decodePage(undefined)).toBeUndefined()
    expect(await decodePage({ z: 'not base64 of gzip!' })).toBeUndefined()
    const other = await encodePage({ ...facts(), mailboxes: 3 as never })
    expect(await decodePage(other)).toBeUndefined()
  })

  it('is refused when it does not fit one value', async () => {
    const f = facts()
    const noise = Array.from({ length: 60_000 }, (_, i) => `${i}-${Math.random()}`)
    await expect(encodePage({ ...f, mailboxes: noise })).rejects.toBeInstanceOf(PageTooLarge)
  })
})
