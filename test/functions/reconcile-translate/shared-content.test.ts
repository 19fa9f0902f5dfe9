import { describe, expect, it } from 'vitest'
import type {
  DesiredContent,
  PlacementSelection,
  Previous,
} from '../../../functions/reconcile-translate/desired.ts'
import {
  contentKeyOf,
  contentMemo,
  copiesText,
  shareKey,
} from '../../../functions/reconcile-translate/shared-content.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'

const selection = (space: string, name: string) =>
  ({ ref: { spaceId: space, placement: { metadata: { name } } } }) as unknown as PlacementSelection

const entry = (name: string, hash: string, removing?: string): ManifestEntry => ({
  ...{ group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name, hash },
  ...{ specHash: hash, rv: 7, uid: `uid-${name}`, created: 'x', generation: 1 },
  ...(removing ? { removing } : {}),
})
const prev = (e: ManifestEntry, body = true): Previous => ({
  entry: e,
  body: body ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: e.name } } : undefined,
})

/** A mailbox's content key, as the translate step builds it (content-plan.ts). */
const contentKey = (
  chosen: PlacementSelection[],
  versions: Map<string, string>,
  previous: Previous[]
) => contentKeyOf(shareKey(chosen, versions), copiesText(previous))

describe('contentKey', () => {
  const base = contentKey([selection('s1', 'p')], new Map([['', 'v1']]), [prev(entry('a', 'h1'))])

  it('is the same for the same inputs, whatever per-copy metadata differs', () => {
    const other = { ...entry('a', 'h1'), uid: 'another', rv: 99, created: 'y' }
    expect(contentKey([selection('s1', 'p')], new Map([['', 'v1']]), [prev(other)])).toBe(base)
  })

  it('differs with the placements, a version, a previous body, a tombstone or a missing body', () => {
    const v = new Map([['', 'v1']])
    const keys = [
      contentKey([selection('s1', 'q')], v, [prev(entry('a', 'h1'))]),
      contentKey([selection('s2', 'p')], v, [prev(entry('a', 'h1'))]),
      contentKey([selection('s1', 'p'), selection('s1', 'q')], v, [prev(entry('a', 'h1'))]),
      contentKey([selection('s1', 'p')], new Map([['', 'v2']]), [prev(entry('a', 'h1'))]),
      contentKey([selection('s1', 'p')], v, [prev(entry('a', 'h2'))]),
      contentKey([selection('s1', 'p')], v, [prev(entry('a', 'h1', '2030-01-01T00:00:00Z'))]),
      contentKey([selection('s1', 'p')], v, [prev(entry('a', 'h1'), false)]),
      contentKey([selection('s1', 'p')], v, []),
    ]
    expect(new Set([base, ...keys]).size).toBe(keys.length + 1)
  })
})

describe('shareKey', () => {
  it('names each placement’s place under the Rollouts it sends from, and nothing without one', () => {
    const v = new Map([['', 'v1']])
    const at = (revisions?: string) =>
      shareKey([{ ...selection('s1', 'p'), ...(revisions ? { revisions } : {}) }], v)
    expect(at()).toBe(shareKey([selection('s1', 'p')], v))
    expect(at('shop:canary')).toBe(at('shop:canary'))
    expect(new Set([at(), at('shop:canary'), at('shop:rest'), at('shop:canary>')]).size).toBe(4)
  })
})

describe('contentMemo', () => {
  const content = (n: number): DesiredContent => ({ entries: [], conflicts: [], n }) as never

  it('computes a key once and forgets the least recently used past its limit', () => {
    const memo = contentMemo(2)
    let computed = 0
    const get = (k: string) =>
      memo.get(k, () => {
        computed++
        return content(computed)
      })
    const a = get('a')
    expect(get('a')).toBe(a)
    get('b')
    get('a') // a is now the most recent
    get('c') // drops b
    expect(computed).toBe(3)
    expect(get('a')).toBe(a)
    get('b')
    expect(computed).toBe(4)
  })
})
