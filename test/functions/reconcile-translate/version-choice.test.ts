/**
 * The version choice of overlapping workloads, rule by rule as seed 003 states it: intersection of
 * served versions, throwing out the lowest source while it is empty, the preferred versions' union
 * used only when it meets the intersection, highest first, then sticky while still a candidate.
 */
import { describe, expect, it } from 'vitest'
import {
  chooseVersion,
  versionCandidates,
} from '../../../functions/reconcile-translate/version-choice.ts'

const src = (id: string, versions: string[], preferred = versions[0] ?? '') => ({
  id,
  versions,
  preferred,
})

describe('versionCandidates', () => {
  it('is the intersection of the served versions when no preferred version is in it', () => {
    const c = versionCandidates([
      src('a', ['v3', 'v2', 'v1'], 'v3'),
      src('b', ['v2', 'v1', 'v0x'], 'v0x'),
    ])
    expect(c.candidates).toEqual(['v2', 'v1'])
    expect(c.thrownOut).toEqual([])
    expect(c.kept).toEqual(['a', 'b'])
  })

  it('narrows to the union of preferred versions when it meets the intersection', () => {
    const c = versionCandidates([
      src('a', ['v2', 'v1', 'v1beta1'], 'v1'),
      src('b', ['v2', 'v1', 'v1beta1'], 'v1beta1'),
    ])
    expect(c.candidates).toEqual(['v1', 'v1beta1'])
  })

  it('is just the preferred version for a single source', () => {
    expect(versionCandidates([src('a', ['v2', 'v1'], 'v1')]).candidates).toEqual(['v1'])
  })

  it('throws out the source with the lowest version while the intersection is empty', () => {
    const c = versionCandidates([
      src('old', ['v1alpha1']),
      src('mid', ['v1beta1', 'v1alpha2']),
      src('new', ['v1', 'v1beta1']),
    ])
    expect(c.thrownOut).toEqual(['old'])
    expect(c.kept).toEqual(['mid', 'new'])
    expect(c.candidates).toEqual(['v1beta1'])
  })

  it('repeats until the rest intersect, and the order of sources does not matter', () => {
    const sources = [src('a', ['v1']), src('b', ['v2']), src('c', ['v3', 'v2'])]
    const c = versionCandidates(sources)
    expect(c.thrownOut).toEqual(['a'])
    expect(c.candidates).toEqual(['v2'])
    expect(c.kept).toEqual(['b', 'c'])
    const none = versionCandidates([src('x', ['v1']), src('y', ['v2']), src('z', ['v3'])])
    expect(none.thrownOut).toEqual(['x', 'y'])
    expect(none.candidates).toEqual(['v3'])
    const reversed = versionCandidates([...sources].reverse())
    expect(reversed).toEqual(c)
  })

  it('lowest means the lowest highest version (kube priority), then the next ones', () => {
    const c = versionCandidates([src('a', ['v2beta1', 'v1']), src('b', ['v2alpha1', 'v2beta1'])])
    expect(c.candidates).toEqual(['v2beta1'])
    const d = versionCandidates([src('a', ['v1', 'v1alpha1']), src('b', ['v2beta1'])])
    // v1 (GA) is higher than v2beta1, so b is the lowest
    expect(d.thrownOut).toEqual(['b'])
    expect(d.candidates).toEqual(['v1'])
    const tie = versionCandidates([src('p', ['v1']), src('q', ['v1', 'v1beta1']), src('r', ['v2'])])
    expect(tie.thrownOut).toEqual(['p', 'q'])
  })

  it('takes the preferred union over the kept sources only', () => {
    const c = versionCandidates([
      src('gone', ['v1alpha1'], 'v1alpha1'),
      src('a', ['v2', 'v1'], 'v2'),
      src('b', ['v2', 'v1'], 'v1'),
    ])
    expect(c.thrownOut).toEqual(['gone'])
    expect(c.candidates).toEqual(['v2', 'v1'])
  })
})

describe('chooseVersion', () => {
  it('picks the highest candidate the first time', () => {
    expect(chooseVersion(['v1beta1', 'v2', 'v1'])).toBe('v2')
  })

  it('sticks with the remembered version while it is a candidate', () => {
    expect(chooseVersion(['v2', 'v1'], 'v1')).toBe('v1')
  })

  it('picks the highest again when the remembered version is no longer a candidate', () => {
    expect(chooseVersion(['v3', 'v2'], 'v1')).toBe('v3')
  })
})
