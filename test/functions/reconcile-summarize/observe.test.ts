/**
 * What the summaries and the dashboard see of a copy (functions/reconcile-summarize/observe.ts):
 * a copy is one space's only when its recorded sources name that space. Another space's copy of
 * the same identity (a trust-scope conflict keeps it with its own scope) is absent for the space
 * asking — no entry, no state, no body — so neither its content nor what its edge reported
 * reaches a Summarizer or a dashboard cell of that space; a merged copy of one scope is seen by
 * each of its spaces, and a copy with no recorded sources (older manifests) by whoever asks.
 */
import { describe, expect, it } from 'vitest'
import { observe } from '../../../functions/reconcile-summarize/observe.ts'
import type { Inventory, MailboxView } from '../../../functions/reconcile-summarize/reads.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { mailboxOfDestination } from '../../../lib/placement/destinations.ts'
import type { SourceObject } from '../../../lib/placement/types.ts'
import type { ManifestEntry, StoredCopyState } from '../../../lib/store/projection-types.ts'

const d = { cluster: 'inv', locationName: 'florin', syncTargetName: 'florin', syncTargetUID: 'u1' }
const secret: SourceObject = {
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespaced: true,
  object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'mx' } },
}
const body: KubeObject = { ...secret.object, data: { password: 'b-secret' } }
const entry = (sources?: string[]): ManifestEntry => ({
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespace: 'mx',
  name: 'creds',
  hash: 'h1',
  specHash: 's1',
  rv: 7,
  uid: 'copy-uid',
  created: '2026-01-01T00:00:00Z',
  generation: 1,
  ...(sources ? { sources: sources.map((space) => ({ space, placements: ['ep'] })) } : {}),
})

/** One mailbox holding `e`, with a reported state; counts what was read. */
function world(e: ManifestEntry) {
  const asked = { states: 0, bodies: [] as string[] }
  const view: MailboxView = {
    space: { id: 'mb-space', path: `root:espw:${mailboxOfDestination(d)}` } as MailboxView['space'],
    version: 1,
    entries: new Map([['/secrets/mx/creds', e]]),
  }
  const inventory: Inventory = { syncTargets: new Map(), locations: new Map(), leases: new Map() }
  const reads = {
    inventory: async () => inventory,
    mailbox: async (name: string) => (name === mailboxOfDestination(d) ? view : undefined),
    states: async () => {
      asked.states++
      const state = { uid: 'copy-uid', status: { phase: 'Ready' } } as unknown as StoredCopyState
      return new Map([['/secrets/mx/creds', state]])
    },
  }
  const projections = {
    getBodies: async (hashes: readonly string[]) => {
      asked.bodies.push(...hashes)
      return new Map(hashes.map((h) => [h, body] as const))
    },
  }
  return { reads, projections, asked }
}

const factsFor = async (e: ManifestEntry, spaceId: string) => {
  const w = world(e)
  const seen = await observe(w.reads, w.projections, {
    spaceId,
    pairs: [{ object: secret, destinations: [d] }],
  })
  return { facts: seen.facts(secret, d), asked: w.asked }
}

describe('observe', () => {
  it("shows a space nothing of a copy another space's object made", async () => {
    const { facts, asked } = await factsFor(entry(['space-b']), 'space-a')
    expect(facts.entry).toBeUndefined()
    expect(facts.state).toBeUndefined()
    expect(facts.body).toBeUndefined()
    expect(asked).toEqual({ states: 0, bodies: [] })
  })

  it('shows the copy whole to each space it was made of', async () => {
    for (const space of ['space-a', 'space-b']) {
      const { facts } = await factsFor(entry(['space-a', 'space-b']), space)
      expect(facts.entry?.uid).toBe('copy-uid')
      expect(facts.body?.data).toEqual({ password: 'b-secret' })
      expect(facts.state?.uid).toBe('copy-uid')
    }
  })

  it('counts a copy with no recorded sources as the asking space’s', async () => {
    const { facts } = await factsFor(entry(), 'space-a')
    expect(facts.entry?.uid).toBe('copy-uid')
    expect(facts.body).toBeDefined()
  })
})
