import { describe, expect, it } from 'vitest'
import { configMapPath, NAMESPACES_PATH, resourceVersionOf } from '../../bench/hub-client.ts'

describe('configMapPath', () => {
  it('addresses the collection and one object in root', () => {
    expect(configMapPath('a')).toBe('/clusters/root/api/v1/namespaces/a/configmaps')
    expect(configMapPath('a', 'cm-1')).toBe('/clusters/root/api/v1/namespaces/a/configmaps/cm-1')
    expect(NAMESPACES_PATH).toBe('/clusters/root/api/v1/namespaces')
  })

  it('escapes path segments', () => {
    expect(configMapPath('a b', 'x/y')).toBe(
      '/clusters/root/api/v1/namespaces/a%20b/configmaps/x%2Fy'
    )
  })
})

describe('resourceVersionOf', () => {
  it('reads metadata.resourceVersion', () => {
    expect(resourceVersionOf({ metadata: { resourceVersion: '42' } })).toBe('42')
  })

  it('is empty for anything else', () => {
    for (const body of [undefined, null, 'x', 3, {}, { metadata: 'm' }, { metadata: {} }])
      expect(resourceVersionOf(body)).toBe('')
    expect(resourceVersionOf({ metadata: { resourceVersion: 42 } })).toBe('')
  })
})
