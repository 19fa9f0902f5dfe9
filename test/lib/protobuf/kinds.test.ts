import { describe, expect, it } from 'vitest'
import { PROTOBUF_KINDS, protobufKind } from '../../../lib/protobuf/kinds.ts'
import { loadFixtures } from './helpers/fixtures.ts'

describe('protobufKind', () => {
  it('has a descriptor for every kind kubectl create generates', () => {
    for (const c of loadFixtures().cases) {
      const { apiVersion, kind } = c.expected as { apiVersion: string; kind: string }
      expect(protobufKind(apiVersion, kind), `${apiVersion} ${kind}`).toBeDefined()
    }
  })

  it('names each descriptor after the protobuf message of its kind', () => {
    for (const [key, desc] of PROTOBUF_KINDS) {
      const kind = key.split('/').pop()
      expect(desc.name.endsWith(`.${kind}`), key).toBe(true)
      expect(desc.byNumber.get(1)?.name, key).toBe('metadata')
    }
  })

  it('knows nothing of other kinds or versions', () => {
    expect(protobufKind('v1', 'Pod')).toBeUndefined()
    expect(protobufKind('apps/v1beta1', 'Deployment')).toBeUndefined()
  })
})
