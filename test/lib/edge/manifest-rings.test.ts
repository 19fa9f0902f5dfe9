import { describe, expect, it } from 'vitest'
import { manifestRings } from '../../../lib/edge/manifest-rings.ts'
import type {
  Manifest,
  ManifestWriteOutcome,
  ManifestWriteRequest,
} from '../../../lib/store/projection-types.ts'

const manifest = (mailbox: string, version: number, shared?: number): Manifest =>
  ({
    mailbox,
    version,
    entries: [],
    ...(shared ? { shared: { version: shared, membership: { id: 'sh-1' } } } : {}),
  }) as unknown as Manifest
const req = (mailbox: string, known?: Manifest): ManifestWriteRequest => ({
  mailbox,
  w: { desired: [], expectedVersion: null, now: new Date(0), known: known ?? null },
})
const ok = (m: Manifest, written: boolean): ManifestWriteOutcome => ({
  ok: true,
  result: { manifest: m, added: 0, changed: 0, removed: 0, written },
})

describe('manifestRings', () => {
  it('rings the written mailboxes with their content version, not the unchanged or failed', () => {
    const rings = manifestRings(
      [req('a'), req('b', manifest('b', 3)), req('c'), req('d', manifest('d', 2, 9))],
      [
        ok(manifest('a', 7), true),
        ok(manifest('b', 3), false),
        { ok: false, error: new Error('conflict') },
        ok(manifest('d', 2, 11), false),
      ]
    )
    // d's shared manifest moved: its members elsewhere wait on its key too.
    expect(rings).toEqual(
      new Map([
        ['a', 7],
        ['d', 11],
        ['shared:sh-1', 11],
      ])
    )
  })
})
