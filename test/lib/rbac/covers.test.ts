/**
 * Rule coverage as kube's escalation check computes it: a rule broken into simple rules, each
 * covered by a held one — wildcards, subresources through `*\/sub`, resourceNames both ways, and
 * non-resource URLs by prefix.
 */
import { describe, expect, it } from 'vitest'
import { breakdown, compactRule, uncovered } from '../../../lib/rbac/covers.ts'

describe('uncovered', () => {
  it('breaks a rule into one verb, group, resource and name each', () => {
    expect(
      breakdown({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] })
    ).toHaveLength(4)
    expect(breakdown({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).toHaveLength(2)
  })

  it('is empty when every simple rule is held, and names what is not', () => {
    const held = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]
    expect(uncovered(held, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).toEqual([])
    const missing = uncovered(held, [
      { verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] },
    ])
    expect(missing.map(compactRule)).toEqual([
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    ])
  })

  it('covers subresources through * and */sub, never through the bare resource', () => {
    const sub = [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }]
    expect(uncovered([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], sub)).toHaveLength(
      1
    )
    expect(uncovered([{ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }], sub)).toEqual([])
    expect(uncovered([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], sub)).toEqual([])
  })

  it('lets a held rule without names cover named ones, not the reverse', () => {
    const any = [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]
    const one = [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }]
    expect(uncovered(any, one)).toEqual([])
    expect(uncovered(one, any)).toHaveLength(1)
    expect(uncovered(one, [{ ...one[0]!, resourceNames: ['b'] }])).toHaveLength(1)
  })

  it('covers non-resource URLs exactly or under a trailing *', () => {
    const held = [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }]
    expect(uncovered(held, [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }])).toEqual([])
    expect(uncovered(held, [{ verbs: ['get'], nonResourceURLs: ['/api'] }])).toHaveLength(1)
  })
})
