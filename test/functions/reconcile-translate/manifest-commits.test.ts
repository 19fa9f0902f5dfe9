/**
 * Group commit of a translate batch's manifest writes: a lone write goes out at once, writes that
 * arrive meanwhile go together, a wave of runs in flight commits as one group once each has
 * handed its write or ended, a run still planning holds the group only up to the linger time,
 * and each write keeps its own outcome.
 */
import { describe, expect, it } from 'vitest'
import { manifestCommits } from '../../../functions/reconcile-translate/manifest-commits.ts'
import { conflict } from '../../../lib/errors.ts'
import type {
  ManifestWriteOutcome,
  ManifestWriteRequest,
} from '../../../lib/store/projection-types.ts'

const NOW = new Date('2030-01-01T00:00:00Z')
const write = { desired: [], expectedVersion: null, now: NOW }

/**
 * A store whose writeManifests records each group and answers when `release` is called; the
 * versions it confirms are `stored`'s, recorded in `confirmed` (one list per read).
 */
function recordingStore(fail?: (mailbox: string) => unknown, stored = new Map<string, number>()) {
  const groups: string[][] = []
  const confirmed: string[][] = []
  const pending: (() => void)[] = []
  return {
    groups,
    confirmed,
    release: () => pending.shift()?.(),
    async getManifestVersions(mailboxes: readonly string[]) {
      confirmed.push([...mailboxes])
      return new Map([...stored].filter(([m]) => mailboxes.includes(m)))
    },
    writeManifests(requests: readonly ManifestWriteRequest[]) {
      groups.push(requests.map((r) => r.mailbox))
      return new Promise<ManifestWriteOutcome[]>((resolve) => {
        pending.push(() =>
          resolve(
            requests.map((r, i) => {
              const error = fail?.(r.mailbox)
              if (error) return { ok: false, error }
              const manifest = { mailbox: r.mailbox, version: i + 1, entries: [] }
              return {
                ok: true,
                result: { manifest, added: 0, changed: 0, removed: 0, written: true },
              }
            })
          )
        )
      })
    },
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('manifestCommits', () => {
  it('sends a lone write at once and groups the writes that arrive meanwhile', async () => {
    const store = recordingStore()
    const commits = manifestCommits(store, { max: 3 })
    const first = commits.write('m1', write)
    expect(store.groups).toEqual([['m1']])
    const later = ['m2', 'm3', 'm4', 'm5'].map((m) => commits.write(m, write))
    expect(store.groups).toHaveLength(1)
    store.release()
    expect((await first).manifest.mailbox).toBe('m1')
    await tick()
    expect(store.groups).toEqual([['m1'], ['m2', 'm3', 'm4']])
    store.release()
    await tick()
    expect(store.groups.at(-1)).toEqual(['m5'])
    store.release()
    expect((await Promise.all(later)).map((r) => r.manifest.mailbox)).toEqual([
      'm2',
      'm3',
      'm4',
      'm5',
    ])
  })

  it('fails only the write whose outcome failed, and every write of a group that threw', async () => {
    const store = recordingStore((m) =>
      m === 'bad' ? conflict('manifests', { name: m }, 'moved') : undefined
    )
    const commits = manifestCommits(store)
    const a = commits.write('a', write)
    const bad = commits.write('bad', write)
    const b = commits.write('b', write)
    store.release()
    await tick()
    store.release()
    await expect(a).resolves.toMatchObject({ written: true })
    await expect(bad).rejects.toMatchObject({ code: 409 })
    await expect(b).resolves.toMatchObject({ written: true })
    const broken = manifestCommits({
      writeManifests: () => Promise.reject(new Error('table gone')),
      getManifestVersions: () => Promise.reject(new Error('table gone')),
    })
    await expect(broken.write('x', write)).rejects.toThrow('table gone')
  })

  it('commits a wave of runs as one group once every run in flight has written or ended', async () => {
    const store = recordingStore()
    const commits = manifestCommits(store, { max: 10, lingerMs: 60_000 })
    for (let i = 0; i < 4; i++) commits.started()
    const a = commits.write('a', write)
    const b = commits.write('b', write)
    await tick()
    // Two runs still plan: nothing goes out yet.
    expect(store.groups).toEqual([])
    commits.ended() // a run that wrote nothing
    const c = commits.write('c', write)
    await tick()
    expect(store.groups).toEqual([['a', 'b', 'c']])
    store.release()
    await Promise.all([a, b, c])
    for (let i = 0; i < 3; i++) commits.ended()
    // With no run in flight, a write goes out at once again.
    const d = commits.write('d', write)
    expect(store.groups.at(-1)).toEqual(['d'])
    store.release()
    await d
  })

  it('sends a full group without waiting for the rest of the wave', async () => {
    const store = recordingStore()
    const commits = manifestCommits(store, { max: 2, lingerMs: 60_000 })
    for (let i = 0; i < 5; i++) commits.started()
    const writes = ['a', 'b'].map((m) => commits.write(m, write))
    expect(store.groups).toEqual([['a', 'b']])
    store.release()
    await Promise.all(writes)
  })

  it('confirms the versions of runs that write nothing with the group, Conflict when one moved', async () => {
    const store = recordingStore(
      undefined,
      new Map([
        ['same', 4],
        ['moved', 9],
      ])
    )
    const commits = manifestCommits(store, { max: 10, lingerMs: 60_000 })
    for (let i = 0; i < 4; i++) commits.started()
    const a = commits.write('a', write)
    const same = commits.confirm('same', 4)
    const moved = commits.confirm('moved', 7)
    const gone = commits.confirm('gone', 3)
    await tick()
    // One group: the write, and the three versions read together.
    expect(store.groups).toEqual([['a']])
    expect(store.confirmed).toEqual([['same', 'moved', 'gone']])
    store.release()
    await expect(a).resolves.toMatchObject({ written: true })
    await expect(same).resolves.toBeUndefined()
    await expect(moved).rejects.toMatchObject({ code: 409 })
    await expect(gone).rejects.toMatchObject({ code: 409 })
  })

  it('does not hold a group for a run set aside waiting on another', async () => {
    const store = recordingStore()
    const commits = manifestCommits(store, { max: 10, lingerMs: 60_000 })
    commits.started()
    commits.started()
    let done: (v: string) => void = () => undefined
    const other = new Promise<string>((r) => {
      done = r
    })
    const waiting = commits.aside(other)
    const a = commits.write('a', write)
    await tick()
    // The run set aside hands nothing: the other's write goes out without the linger.
    expect(store.groups).toEqual([['a']])
    store.release()
    await a
    done('ok')
    expect(await waiting).toBe('ok')
    // Back in flight: a write waits for it again.
    commits.ended()
    commits.started()
    const b = commits.write('b', write)
    await tick()
    expect(store.groups).toEqual([['a']])
    commits.ended()
    await tick()
    expect(store.groups).toEqual([['a'], ['b']])
    store.release()
    await b
  })

  it('holds a group for a run still planning only up to the linger time', async () => {
    const store = recordingStore()
    const commits = manifestCommits(store, { max: 10, lingerMs: 20 })
    commits.started()
    commits.started()
    const a = commits.write('a', write)
    await tick()
    expect(store.groups).toEqual([])
    await new Promise((r) => setTimeout(r, 40))
    expect(store.groups).toEqual([['a']])
    store.release()
    await a
  })
})
