/**
 * A group commit rings the bell of held edge polls once, with every mailbox it wrote at its new
 * version, before the runs hear their outcomes; nothing when the group wrote nothing.
 */
import { describe, expect, it } from 'vitest'
import { manifestCommits } from '../../../functions/reconcile-translate/manifest-commits.ts'
import type {
  ManifestWriteOutcome,
  ManifestWriteRequest,
} from '../../../lib/store/projection-types.ts'

const write = { desired: [], expectedVersion: null, now: new Date(0) }

function store(written: (mailbox: string) => boolean) {
  return {
    async getManifestVersions() {
      return new Map<string, number>()
    },
    async writeManifests(requests: readonly ManifestWriteRequest[]) {
      return requests.map(
        (r, i): ManifestWriteOutcome => ({
          ok: true,
          result: {
            manifest: { mailbox: r.mailbox, version: 10 + i, entries: [] },
            ...{ added: 0, changed: 0, removed: 0, written: written(r.mailbox) },
          },
        })
      )
    },
  }
}

describe('manifestCommits with a bell', () => {
  it('rings once per group, the written mailboxes only, before the runs resume', async () => {
    const rings: Map<string, number>[] = []
    const events: string[] = []
    const bell = {
      async ring(v: ReadonlyMap<string, number>) {
        rings.push(new Map(v))
        events.push('ring')
      },
    }
    const commits = manifestCommits(
      store((m) => m !== 'b'),
      { bell }
    )
    for (let i = 0; i < 3; i++) commits.started()
    const runs = ['a', 'b', 'c'].map((m) =>
      commits.write(m, write).then(() => events.push(`done ${m}`))
    )
    await Promise.all(runs)
    expect(rings).toEqual([
      new Map([
        ['a', 10],
        ['c', 12],
      ]),
    ])
    expect(events[0]).toBe('ring')
  })

  it('rings nothing for a group that wrote nothing', async () => {
    const rings: unknown[] = []
    const commits = manifestCommits(
      store(() => false),
      { bell: { ring: async (v) => void rings.push(v) } }
    )
    await commits.write('a', write)
    expect(rings).toEqual([])
  })
})
