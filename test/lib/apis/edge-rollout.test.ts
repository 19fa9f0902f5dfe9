/** The Rollout schema's admission rules (lib/apis/edge-rollout.ts) and its count-or-percentage. */
import { describe, expect, it } from 'vitest'
import { RolloutSpecSchema, resolveCount } from '../../../lib/apis/edge-rollout.ts'

const ok = {
  waves: [
    { name: 'canary', locationSelectors: [{ matchLabels: { ring: 'canary' } }], maxEdges: '10%' },
    { name: 'rest', approval: true },
  ],
  gate: { readyPercent: 90, maxFailedEdges: 2, staleEdges: 'Skip' },
  onFailure: 'Rollback',
  approvals: [{ wave: 'rest', revision: 2 }],
}
const problems = (spec: unknown) => {
  const r = RolloutSpecSchema.safeParse(spec)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('RolloutSpecSchema', () => {
  it('accepts a well-formed spec', () => {
    expect(problems(ok)).toEqual([])
  })

  it.each([
    ['no waves', { waves: [] }, 'waves'],
    [
      'a duplicate wave name',
      { waves: [{ name: 'a', locationSelectors: [{}] }, { name: 'a' }] },
      'waves.1.name: Duplicate value',
    ],
    [
      'a wave name that is no DNS label',
      { waves: [{ name: 'Canary' }] },
      'waves.0.name: Invalid value',
    ],
    [
      'a catch-all before the last wave',
      { waves: [{ name: 'all' }, { name: 'never', locationSelectors: [{}] }] },
      'waves.0.locationSelectors: Invalid value: a wave without locationSelectors',
    ],
    [
      'a percentage over 100',
      { waves: [{ name: 'a', maxEdges: '150%' }] },
      'waves.0.maxEdges: Invalid value: "150%"',
    ],
    [
      'a percentage of 0',
      { waves: [{ name: 'a' }], gate: { maxFailedEdges: '0%' } },
      'gate.maxFailedEdges',
    ],
    ['not a percentage', { waves: [{ name: 'a', maxEdges: 'half' }] }, 'waves.0.maxEdges'],
    ['maxEdges 0', { waves: [{ name: 'a', maxEdges: 0 }] }, 'waves.0.maxEdges'],
    ['readyPercent 0', { waves: [{ name: 'a' }], gate: { readyPercent: 0 } }, 'gate.readyPercent'],
    [
      'an unknown staleEdges',
      { waves: [{ name: 'a' }], gate: { staleEdges: 'Ignore' } },
      'gate.staleEdges',
    ],
    ['an unknown onFailure', { waves: [{ name: 'a' }], onFailure: 'Retry' }, 'onFailure'],
    [
      'an approval of no wave',
      { waves: [{ name: 'a' }], approvals: [{ wave: 'b', revision: 1 }] },
      'approvals.0.wave: Invalid value: "b"',
    ],
  ])('refuses %s', (_n, spec, want) => {
    expect(problems(spec).join('\n')).toContain(want)
  })
})

describe('resolveCount', () => {
  it.each([
    [3, 10, 3],
    ['10%', 10, 1],
    ['10%', 5, 1],
    ['25%', 10, 3],
    ['100%', 7, 7],
  ] as const)('%s of %i is %i', (v, total, want) => {
    expect(resolveCount(v, total)).toBe(want)
  })
})
