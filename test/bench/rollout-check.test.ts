/**
 * The rollout phase's check (bench/rollout-check.ts): a mailbox holds the revision only when the
 * changed copy's body carries that Rollout's stamp at that revision and the new data; each wave
 * is answered apart; the waves up to the promoted one must hold it and no later one may.
 */
import { describe, expect, it } from 'vitest'
import { holding, wavesAsExpected } from '../../bench/rollout-check.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Manifest, ProjectionStore } from '../../lib/store/projection-types.ts'

const key = '/configmaps/fan/cm-0'

function manifestWith(mailbox: string, hash: string): Manifest {
  const e = {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespace: 'fan',
    name: 'cm-0',
    hash,
    specHash: `s-${hash}`,
    rv: 1,
    uid: 'u',
    created: '2024-01-01T00:00:00Z',
    generation: 1,
  }
  return { mailbox, version: 1, entries: [e] }
}

const body = (stamp: string | undefined, payload: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm-0',
    namespace: 'fan',
    ...(stamp ? { annotations: { 'edge.kcp.io/rollout-revision': stamp } } : {}),
  },
  data: { payload },
})

/** An inspect store over fixed manifests (by space id) and bodies (by hash). */
function store(manifests: Record<string, string>, bodies: Record<string, KubeObject>) {
  const asked: string[][] = []
  const s = {
    getManifest: async (id: string) =>
      manifests[id] ? manifestWith(id, manifests[id]) : undefined,
    getBodies: async (hashes: readonly string[]) => {
      asked.push([...hashes])
      return new Map(hashes.filter((h) => bodies[h]).map((h) => [h, bodies[h]!]))
    },
  }
  return { inspect: s as unknown as ProjectionStore, asked }
}

const mb = (id: string) => ({ key: `k-${id}`, spaceId: id })
const want = { key, rollout: 'bench-rollout', revision: 2, payload: 'new' }

describe('holding', () => {
  it('counts a mailbox only with the stamp of the revision and the new data, per wave', async () => {
    const { inspect, asked } = store(
      { a: 'h2', b: 'h2', c: 'h1', d: 'hOther', e: 'hOld', f: 'h2' },
      {
        h2: body('bench-rollout/2', 'new'),
        h1: body('bench-rollout/1', 'old'),
        hOther: body('other/2', 'new'),
        hOld: body('bench-rollout/2', 'old'),
      }
    )
    const h = await holding(
      inspect,
      [
        [mb('a'), mb('b')],
        [mb('c'), mb('d'), mb('e')],
        [mb('f'), mb('g')],
      ],
      want
    )
    expect(h.map((w) => w.holding)).toEqual([2, 0, 1])
    expect(h[1]!.lacking.map((m) => m.spaceId)).toEqual(['c', 'd', 'e'])
    expect(h[2]!.lacking.map((m) => m.spaceId)).toEqual(['g'])
    // each distinct body is read once
    expect(asked.flat().sort()).toEqual(['h1', 'h2', 'hOld', 'hOther'])
  })
})

describe('wavesAsExpected', () => {
  const w = (lacking: number, held: number) => ({
    lacking: Array.from({ length: lacking }, (_, i) => mb(String(i))),
    holding: held,
  })

  it('passes when the waves up to the promoted one hold it and none after', () => {
    expect(wavesAsExpected([w(0, 3), w(0, 3), w(3, 0)], 1)).toBeUndefined()
    expect(wavesAsExpected([w(3, 0), w(3, 0)], -1)).toBeUndefined()
  })

  it('names a promoted wave still lacking it', () => {
    expect(wavesAsExpected([w(0, 3), w(1, 2), w(3, 0)], 1)).toBe(
      'wave 1: 1 mailboxes lack the revision'
    )
  })

  it('names a later wave that holds it before its promotion', () => {
    expect(wavesAsExpected([w(0, 3), w(2, 1)], 0)).toBe(
      'wave 1: 1 mailboxes hold the revision before their wave'
    )
  })
})
