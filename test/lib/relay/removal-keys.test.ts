/**
 * Wake-ups of the deletion lifecycle through keysForEvent: a tombstone in a mailbox space wakes its
 * mailbox's translate key; a terminating workload object holding the edge-removal finalizer wakes
 * the summarize keys of its space's placements; without the finalizer or the deletionTimestamp,
 * neither.
 */
import { describe, expect, it } from 'vitest'
import { EDGE_REMOVAL_FINALIZER } from '../../../lib/deletion/lifecycle.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { keysForEvent } from '../../../lib/relay/event-keys.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import { createSummarizeKeysState } from '../../../lib/relay/summarize-keys.ts'

const mb = 'inv1-mb-0a1b2c3d-1111-2222-3333-000000000001'
const CM = { group: '', resource: 'configmaps' }

const cm = (cluster: string, meta: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'n', annotations: { 'kcp.io/cluster': cluster }, ...meta },
})
const leaving = { deletionTimestamp: '2030-01-01T00:00:00Z', finalizers: [EDGE_REMOVAL_FINALIZER] }

function world() {
  const index = createSliceIndex()
  index.set('ws1', 'p', [mb])
  index.set('ws1', 'q', [mb])
  index.set('ws2', 'r', [mb])
  const summarize = createSummarizeKeysState()
  summarize.mailboxSpaces.set('mbspace1', mb)
  const deps = {
    espwSpaceId: 'espw1',
    index,
    summarize,
    listEdgePlacements: async () => [],
  }
  return (type: string, o: KubeObject) => keysForEvent(CM, { type, object: o }, deps)
}

describe('removal wake-ups', () => {
  it('wakes translate for a tombstone in a mailbox space', async () => {
    const keys = world()
    const tomb = await keys('MODIFIED', cm('mbspace1', leaving))
    expect(tomb).toContainEqual({ step: 'translate', key: mb })
    const live = await keys('MODIFIED', cm('mbspace1'))
    expect(live.filter((k) => k.step === 'translate')).toEqual([])
  })

  it('wakes the summarize keys of the space for a terminating source with the finalizer', async () => {
    const keys = world()
    const out = await keys('MODIFIED', cm('ws1', leaving))
    expect(out.filter((k) => k.step === 'summarize')).toEqual([
      { step: 'summarize', key: 'ws1/p' },
      { step: 'summarize', key: 'ws1/q' },
    ])
    const other = { deletionTimestamp: '2030-01-01T00:00:00Z', finalizers: ['someone/else'] }
    const without = await keys('MODIFIED', cm('ws1', other))
    expect(without.filter((k) => k.step === 'summarize')).toEqual([])
  })
})
