/**
 * Upgrades lose nothing: `npm start` over a data folder an earlier release wrote (made by
 * test/fixtures/make-upgrade-fixture.ts: workloads placed to two edges with reported status and an
 * upsynced object, a CRD at two versions with the version-choice memory, a tombstone waiting for
 * the offline edge guilder and one for ghost, whose agent never connected) migrates the table
 * before it serves (lib/store/format-migrations.ts) and then serves every object, mailbox copy,
 * desired state and memory exactly as that release served them (helpers/upgrade-snapshot.ts).
 * Two fixtures: test/fixtures/upgrade-10f409b/ (the release before stored formats: format 1) and
 * test/fixtures/upgrade-fbd4f64/ (the release before shared manifests: format 2). The translate
 * step run over every mailbox afterwards changes what a user sees in one thing only: ghost's
 * tombstone goes, since nothing ever reached ghost, while guilder's stays until guilder confirms.
 * The run also moves the mailboxes without customization into a shared manifest: a write of each
 * of their manifests, so the version their agents are served moves while what they hold does not.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eStack, REPO_ROOT, startStack } from './helpers/stack.ts'
import { openStackStore } from './helpers/store-access.ts'
import { type Snapshot, takeSnapshot } from './helpers/upgrade-snapshot.ts'

const FIXTURES = ['upgrade-10f409b', 'upgrade-fbd4f64']

type Expected = { tokens: Record<string, string>; snapshot: Snapshot }
type Listed = { metadata: { name: string; namespace?: string; deletionTimestamp?: string } }[]

/** Desired states without their version (body and ETag), which a manifest write moves. */
function withoutVersions(desired: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(desired).map(([m, d]) => {
      const { etag: _e, body, ...rest } = (d ?? {}) as { etag?: unknown; body?: unknown }
      const { version: _v, ...content } = (body ?? {}) as Record<string, unknown>
      return [m, { ...rest, body: content }]
    })
  )
}

describe.each(FIXTURES)('from %s', (name) => {
  const fixture = join(REPO_ROOT, 'test', 'fixtures', name)
  let stack: E2eStack
  let dataDir: string
  let expected: Expected

  beforeAll(async () => {
    expected = JSON.parse(await readFile(join(fixture, 'expected.json'), 'utf8')) as Expected
    dataDir = await mkdtemp(join(tmpdir(), 'edgeplane-upgrade-'))
    await cp(join(fixture, 'dynalite'), join(dataDir, 'dynalite'), { recursive: true })
    await cp(join(fixture, 'admin-token'), join(dataDir, 'admin-token'))
    // No relay and no cron tick: nothing but the start itself runs before the first read.
    stack = await startStack({ dataDir, relay: false, env: { EDGEPLANE_CRON_PERIOD: '3600' } })
  }, 180_000)
  afterAll(async () => {
    await stack?.destroy()
    await rm(dataDir, { recursive: true, force: true })
  })

  /** The mailbox names of the fixture: the two edges' (they have tokens) and ghost's. */
  function mailboxes(): { edges: string[]; ghost: string } {
    const edges = Object.keys(expected.tokens)
    const all = Object.keys(expected.snapshot.desired)
    const ghost = all.find((m) => !edges.includes(m))
    if (!ghost || edges.length !== 2) throw new Error(`unexpected fixture mailboxes ${all}`)
    return { edges, ghost }
  }

  /** The mailbox Workspace of `mailbox` in root:espw. */
  async function spaceOf(mailbox: string): Promise<{ spec: { cluster: string } }> {
    const res = await stack.api(
      `/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces/${mailbox}`
    )
    expect(res.status).toBe(200)
    return (await res.json()) as { spec: { cluster: string } }
  }

  const configMaps = (s: Snapshot, mailbox: string) =>
    s.spaces[`root:espw:${mailbox}`]?.['/api/v1/configmaps'] as Listed

  describe('upgrade', () => {
    it('migrated the table at start: marks for the edges that reported, none for ghost', async () => {
      const { edges, ghost } = mailboxes()
      const store = openStackStore(await stack.readInfo())
      try {
        const idOf = async (m: string) => (await spaceOf(m)).spec.cluster
        for (const m of edges)
          expect((await store.projections.getServed(await idOf(m))).kind, m).toBe('at')
        expect(await store.projections.getServed(await idOf(ghost))).toEqual({ kind: 'never' })
      } finally {
        store.close()
      }
    })

    it('serves everything exactly as the release before served it', async () => {
      const now = await takeSnapshot(stack, expected.tokens)
      expect(now).toEqual(expected.snapshot)
    })

    it("drops at the next translate run only ghost's tombstone, nothing else changes", async () => {
      const { edges, ghost } = mailboxes()
      const before = expected.snapshot
      const terminating = (s: Snapshot, m: string) =>
        configMaps(s, m)
          .filter((c) => c.metadata.deletionTimestamp)
          .map((c) => c.metadata.name)
      // The release that made format 2 drops a copy never served at once: its fixture holds no
      // tombstone for ghost, the release before it one that the run drops.
      expect(terminating(before, ghost)).toEqual(name === 'upgrade-10f409b' ? ['page'] : [])
      const res = await stack.api('/hooks/translate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keys: [...edges, ghost] }),
      })
      expect(res.status).toBe(200)
      const now = await takeSnapshot(stack, expected.tokens)
      expect(terminating(now, ghost)).toEqual([])
      const held = edges.filter((m) => terminating(before, m).length > 0)
      expect(held).toHaveLength(1)
      for (const m of held) expect(terminating(now, m)).toEqual(['page'])
      // Apart from ghost's mailbox and the desired state its agent would get, nothing moved.
      const { [`root:espw:${ghost}`]: _ghostNow, ...restNow } = now.spaces
      const { [`root:espw:${ghost}`]: _ghostBefore, ...restBefore } = before.spaces
      expect(restNow).toEqual(restBefore)
      const { [ghost]: _dn, ...desiredNow } = now.desired
      const { [ghost]: _db, ...desiredBefore } = before.desired
      expect(withoutVersions(desiredNow)).toEqual(withoutVersions(desiredBefore))
      expect(now.versionMemory).toEqual(before.versionMemory)
      // The mailboxes now hold their live copies through shared manifests (format 3).
      const store = openStackStore(await stack.readInfo())
      try {
        const ids = await Promise.all(
          [...edges, ghost].map(async (m) => {
            const manifest = await store.projections.getManifest((await spaceOf(m)).spec.cluster)
            return manifest?.shared?.membership.id
          })
        )
        expect(ids.filter((id) => id !== undefined).length).toBeGreaterThan(0)
      } finally {
        store.close()
      }
    })
  })
})
