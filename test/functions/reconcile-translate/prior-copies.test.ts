/**
 * A translate run's previous copies, worked out once per entries list: the members read ahead
 * together share their shared manifest's list, so their bodies are asked for and their key text
 * built once; another list (even an equal one) is its own; a failed read is not remembered; and
 * whether two lists hold the same live copies does not depend on order or tombstones.
 */
import { describe, expect, it } from 'vitest'
import { priorCopies, sameCopies } from '../../../functions/reconcile-translate/prior-copies.ts'
import { copiesText } from '../../../functions/reconcile-translate/shared-content.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { ManifestEntry } from '../../../lib/store/projection-types.ts'

const entry = (name: string, hash: string, removing?: string): ManifestEntry => ({
  ...{ group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name, hash },
  ...{ specHash: hash, rv: 7, uid: `uid-${name}`, created: 'x', generation: 1 },
  ...(removing ? { removing } : {}),
})
const body = (hash: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: hash },
})

/** A body store that counts the reads it is asked for and knows the hashes in `known`. */
function bodies(known: string[], fail = false) {
  const asked: string[][] = []
  return {
    asked,
    getBodies: async (hashes: string[]) => {
      asked.push(hashes)
      if (fail) throw new Error('store unavailable')
      return new Map(hashes.filter((h) => known.includes(h)).map((h) => [h, body(h)]))
    },
  }
}

describe('priorCopies', () => {
  it('reads the bodies of one entries list once, for every run holding it', async () => {
    const store = bodies(['h1', 'h2'])
    const list = [entry('a', 'h1'), entry('b', 'h2')]
    const [one, two] = await Promise.all([priorCopies(store, list), priorCopies(store, list)])
    expect(two).toBe(one)
    expect(store.asked).toEqual([['h1', 'h2']])
    expect(one.previous.map((p) => p.body?.metadata.name)).toEqual(['h1', 'h2'])
    expect(one.copies).toBe(copiesText(one.previous))
  })

  it('keeps a missing body visible in the key text', async () => {
    const store = bodies(['h1'])
    const got = await priorCopies(store, [entry('a', 'h1'), entry('b', 'h9')])
    expect(got.previous[1]?.body).toBeUndefined()
    expect(got.copies.split('\n')[1]?.endsWith('?')).toBe(true)
  })

  it('reads an equal list of its own again', async () => {
    const store = bodies(['h1'])
    await priorCopies(store, [entry('a', 'h1')])
    await priorCopies(store, [entry('a', 'h1')])
    expect(store.asked).toHaveLength(2)
  })

  it('asks nothing for a mailbox without a manifest', async () => {
    const store = bodies([])
    const got = await priorCopies(store, undefined)
    expect(got).toEqual({ bodies: new Map(), previous: [], copies: '' })
    expect(store.asked).toEqual([])
  })

  it('does not remember a failed read', async () => {
    const list = [entry('a', 'h1')]
    await expect(priorCopies(bodies([], true), list)).rejects.toThrow('store unavailable')
    const store = bodies(['h1'])
    expect((await priorCopies(store, list)).previous[0]?.body).toBeDefined()
    expect(store.asked).toHaveLength(1)
  })
})

describe('sameCopies', () => {
  it('compares the live copies by key, in any order', () => {
    const a = [entry('a', 'h1'), entry('b', 'h2')]
    expect(sameCopies(a, a)).toBe(true)
    expect(sameCopies(a, [entry('b', 'other'), entry('a', 'other')])).toBe(true)
    expect(sameCopies(a, [entry('a', 'h1')])).toBe(false)
    expect(sameCopies(a, [entry('a', 'h1'), entry('b', 'h2', '2030-01-01T00:00:00Z')])).toBe(false)
    expect(sameCopies([entry('a', 'h1'), entry('c', 'h3', 'now')], [entry('a', 'h1')])).toBe(true)
  })
})
