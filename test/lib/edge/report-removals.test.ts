/**
 * The `removed` list of a report landed as `gone` copy states: written for a tombstone (its uid),
 * not written again when already gone, accepted for a copy already dropped, rejected for a copy
 * that is live (not being removed).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { applyRemovals } from '../../../lib/edge/report-removals.ts'
import type { DesiredEntry } from '../../../lib/store/projection-types.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

let t: TestStore | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const NOW = new Date('2030-01-01T00:00:00Z')
const cm = (name: string, removing?: string): DesiredEntry => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
  body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } },
  ...(removing ? { removing } : {}),
})
const ref = (name: string) => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'ns',
  name,
})

describe('applyRemovals', () => {
  it('records gone for tombstones only, once', async () => {
    t = await createTestStore()
    const p = t.projections
    await p.writeManifest('mb', {
      desired: [cm('a', '2030-01-01T00:00:00Z'), cm('live')],
      expectedVersion: null,
      now: NOW,
    })
    const read = () => p.getManifest('mb')
    const out = await applyRemovals(p, 'mb', [ref('a'), ref('dropped'), ref('live')], read)
    expect(out.accepted).toBe(2)
    expect(out.rejected).toEqual([
      { ref: ref('live'), message: 'the copy /configmaps/ns/live is not being removed' },
    ])
    const keys = [ref('a'), ref('live')]
    const states = await p.getCopyStates('mb', keys)
    const uid = (await read())!.entries[0]!.uid
    expect(states.get('/configmaps/ns/a')).toMatchObject({ uid, gone: true })
    expect(states.has('/configmaps/ns/live')).toBe(false)
    const rv = states.get('/configmaps/ns/a')!.rv
    // Again: accepted, nothing written.
    expect(await applyRemovals(p, 'mb', [ref('a')], read)).toEqual({ accepted: 1, rejected: [] })
    expect((await p.getCopyStates('mb', keys)).get('/configmaps/ns/a')!.rv).toBe(rv)
  })
})
