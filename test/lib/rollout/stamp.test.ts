/** The stamp of a copy projected from a Rollout's revision (lib/rollout/stamp.ts). */
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import {
  parseStamp,
  ROLLOUT_REVISION_ANNOTATION,
  stamped,
  stampOf,
  stampValue,
  withoutStamp,
} from '../../../lib/rollout/stamp.ts'

describe('rollout stamp', () => {
  it('reads back what it writes, and nothing malformed', () => {
    expect(parseStamp(stampValue('shop', 12))).toEqual({ rollout: 'shop', revision: 12 })
    for (const bad of [
      undefined,
      '',
      'shop',
      'shop/',
      '/3',
      'shop/0',
      'shop/x',
      'a/b/3',
      'shop/-1',
    ])
      expect(parseStamp(bad)).toBeUndefined()
  })

  it('stamps a copy of the body, keeping its other annotations', () => {
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', annotations: { keep: 'me' } },
    }
    const out = stamped(body, 'shop', 3)
    expect(out.metadata.annotations).toEqual({
      keep: 'me',
      [ROLLOUT_REVISION_ANNOTATION]: 'shop/3',
    })
    expect(stampOf(out)).toEqual({ rollout: 'shop', revision: 3 })
    expect(body.metadata.annotations).toEqual({ keep: 'me' })
    expect(stampOf(body)).toBeUndefined()
  })

  it('takes the stamp off, leaving the rest and a body without one as it is', () => {
    const body: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }
    expect(withoutStamp(body)).toBe(body)
    expect(withoutStamp(undefined)).toBeUndefined()
    const out = withoutStamp(
      stamped({ ...body, metadata: { name: 'a', annotations: { k: 'v' } } }, 's', 1)
    )
    expect(out.metadata.annotations).toEqual({ k: 'v' })
  })
})
