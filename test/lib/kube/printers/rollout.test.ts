import { describe, expect, it } from 'vitest'
import { ROLLOUT_PRINTER } from '../../../../lib/kube/printers/rollout.ts'
import type { KubeObject } from '../../../../lib/kube/types.ts'

const NOW = new Date('2025-01-01T00:02:00Z')
const print = (body: Record<string, unknown>) =>
  ROLLOUT_PRINTER.row(
    {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'shop', creationTimestamp: '2025-01-01T00:00:00Z' },
      ...(body as Record<string, never>),
    } as KubeObject,
    { now: NOW }
  ).cells

describe('the Rollout printer', () => {
  it('prints REVISION, WAVE, PHASE, READY and AGE', () => {
    expect(ROLLOUT_PRINTER.columns.map((c) => c.name)).toEqual([
      'Name',
      'Revision',
      'Wave',
      'Phase',
      'Ready',
      'Age',
    ])
    const status = {
      revision: 3,
      currentWave: 'early',
      phase: 'WaitingForSoak',
      waves: [
        { name: 'canary', edges: 2, ready: 2 },
        { name: 'early', edges: 5, ready: 1 },
        { name: 'rest', edges: 10, ready: 10 },
      ],
    }
    expect(print({ status })).toEqual(['shop', 3, 'early', 'WaitingForSoak', '13/17', '2m'])
  })

  it('prints null cells before the rollout step wrote a status, and no wave once complete', () => {
    expect(print({})).toEqual(['shop', null, null, null, null, '2m'])
    const done = { revision: 2, phase: 'Complete', waves: [{ name: 'a', edges: 1, ready: 1 }] }
    expect(print({ status: done })).toEqual(['shop', 2, null, 'Complete', '1/1', '2m'])
  })
})
