/**
 * The decode helper: a stored object decodes to its schema's type with unknown fields stripped
 * (an older release's object still decodes) and its metadata whole; an object that breaks the
 * schema gives a problem naming the object's key and each issue's path, never a value; decodeEach
 * keeps the valid ones in order and hands each invalid one over; reportInvalid logs one warning.
 */
import { describe, expect, it } from 'vitest'
import {
  type DecodeProblem,
  decodeEach,
  decodeObject,
  describeIssues,
  reportInvalid,
} from '../../../lib/apis/decode.ts'
import { LocationSchema } from '../../../lib/apis/edge-inventory.ts'
import { EdgePlacementSchema } from '../../../lib/apis/edge-v1alpha1.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { LogFields, Logger } from '../../../lib/log.ts'

const placement = (name: string, spec: KubeObject['spec']): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: {
    name,
    uid: `u-${name}`,
    resourceVersion: '7',
    annotations: { 'kcp.io/cluster': 'ws1' },
    managedFields: [{ manager: 'm', operation: 'Apply' }],
  },
  spec,
})

describe('decodeObject', () => {
  it('types a valid object, strips unknown fields and keeps metadata whole', () => {
    const stored = placement('p', {
      locationSelectors: [{ matchLabels: { env: 'prod' } }],
      downsync: [{ resources: ['configmaps'] }],
    })
    const res = decodeObject(EdgePlacementSchema, { ...stored, extra: 1 })
    expect(res.ok).toBe(true)
    if (!res.ok) return
    expect(res.value.spec?.locationSelectors?.[0]?.matchLabels).toEqual({ env: 'prod' })
    expect(res.value.spec).not.toHaveProperty('downsync')
    expect(res.value).not.toHaveProperty('extra')
    expect(res.value.metadata).toEqual(stored.metadata)
  })

  it('reports an invalid object with its key and the issue paths', () => {
    const res = decodeObject(
      EdgePlacementSchema,
      placement('bad', { locationSelectors: [{ matchLabels: { env: 7 } }], upsync: 'all' })
    )
    expect(res.ok).toBe(false)
    if (res.ok) return
    expect(res.problem.key).toBe('ws1/bad')
    expect(res.problem.object).toMatchObject({ kind: 'EdgePlacement', metadata: { uid: 'u-bad' } })
    expect(res.problem.issues.map((i) => i.path).sort()).toEqual([
      'spec.locationSelectors[0].matchLabels.env',
      'spec.upsync',
    ])
    expect(describeIssues(res.problem)).toContain('spec.upsync: ')
  })

  it('names a wrong kind at the top and a namespaced key with its namespace', () => {
    const res = decodeObject(LocationSchema, {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'Location',
      metadata: { name: 'l', namespace: 'n' },
    })
    expect(res.ok).toBe(false)
    if (res.ok) return
    expect(res.problem.key).toBe('/n/l')
    expect(res.problem.issues.map((i) => i.path)).toEqual(['spec'])
  })
})

describe('decodeEach and reportInvalid', () => {
  it('keeps the valid objects in order and hands over each invalid one', () => {
    const problems: DecodeProblem[] = []
    const got = decodeEach(
      EdgePlacementSchema,
      [placement('a', {}), placement('b', { upsync: 3 }), placement('c', undefined)],
      (p) => problems.push(p)
    )
    expect(got.map((p) => p.metadata.name)).toEqual(['a', 'c'])
    expect(problems.map((p) => p.key)).toEqual(['ws1/b'])
  })

  it('logs one JSON warning with step, kind, key and issues', () => {
    const lines: { msg: string; fields?: LogFields }[] = []
    const log: Logger = {
      debug: () => {},
      info: () => {},
      warn: (msg, fields) => lines.push({ msg, ...(fields ? { fields } : {}) }),
      error: () => {},
      child: () => log,
    }
    const res = decodeObject(EdgePlacementSchema, placement('b', { upsync: 3 }))
    if (res.ok) throw new Error('expected an invalid placement')
    reportInvalid(log, 'where', res.problem)
    expect(lines).toEqual([
      {
        msg: 'invalid stored object skipped',
        fields: {
          step: 'where',
          kind: 'EdgePlacement',
          key: 'ws1/b',
          issues: [{ path: 'spec.upsync', message: expect.any(String) }],
        },
      },
    ])
  })
})
