/** Which wave an edge is in (lib/rollout/waves.ts). */
import { describe, expect, it } from 'vitest'
import type { RolloutWave } from '../../../lib/apis/edge-rollout.ts'
import { waveOf } from '../../../lib/rollout/waves.ts'

const waves: RolloutWave[] = [
  { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }] },
  {
    name: 'early',
    locationSelectors: [
      { matchLabels: { ring: 'early' } },
      { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] },
    ],
  },
  { name: 'rest' },
]

describe('waveOf', () => {
  it.each([
    [{ ring: 'canary', region: 'eu' }, 0],
    [{ ring: 'early' }, 1],
    [{ region: 'eu' }, 1],
    [{ region: 'us' }, 2],
    [undefined, 2],
  ])('%j is in wave %i', (labels, want) => {
    expect(waveOf(waves, labels)).toBe(want)
  })

  it('puts an edge no wave selects in none when there is no catch-all', () => {
    expect(waveOf(waves.slice(0, 2), { region: 'us' })).toBeUndefined()
  })

  it('lets {} select every Location', () => {
    expect(waveOf([{ name: 'all', locationSelectors: [{}] }], { any: 'x' })).toBe(0)
  })
})
