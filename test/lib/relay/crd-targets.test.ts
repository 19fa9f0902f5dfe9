import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { crdWatchTarget, createCrdTargets } from '../../../lib/relay/crd-targets.ts'

function crd(
  space: string,
  plural: string,
  versions: unknown[],
  group = 'example.com'
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, annotations: { 'kcp.io/cluster': space } },
    spec: { group, names: { plural }, versions },
  } as unknown as KubeObject
}

const v = (name: string, served: boolean, storage: boolean) => ({ name, served, storage })

describe('CRD watch targets', () => {
  it.each([
    ['the storage version', [v('v1beta1', true, false), v('v1', true, true)], 'v1'],
    [
      'the first served one when storage is not served',
      [v('v1', false, true), v('v2', true, false)],
      'v2',
    ],
    ['none when nothing is served', [v('v1', false, true)], undefined],
  ])('watches %s', (_name, versions, want) => {
    expect(crdWatchTarget(crd('ws1', 'widgets', versions))?.version).toBe(want)
  })

  it('follows CRD events per space, leaving out espw and built-in shadows', () => {
    const t = createCrdTargets({
      espwSpaceId: 'espw',
      isBuiltin: (g, r) => g === '' && r === 'pods',
    })
    const widgets = crd('ws1', 'widgets', [v('v1', true, true)])
    expect(t.apply({ type: 'ADDED', object: widgets })).toBe(true)
    expect(t.apply({ type: 'MODIFIED', object: widgets })).toBe(false)
    expect(t.apply({ type: 'ADDED', object: crd('espw', 'gadgets', [v('v1', true, true)]) })).toBe(
      false
    )
    expect(t.apply({ type: 'ADDED', object: crd('ws1', 'pods', [v('v1', true, true)], '') })).toBe(
      false
    )
    t.apply({ type: 'ADDED', object: crd('ws2', 'gizmos', [v('v2', true, true)]) })
    expect(t.inSpaces(['ws1', 'ws3'])).toEqual([
      { group: 'example.com', version: 'v1', resource: 'widgets', space: 'ws1' },
    ])
    expect(
      t.apply({ type: 'MODIFIED', object: crd('ws1', 'widgets', [v('v2', true, true)]) })
    ).toBe(true)
    expect(t.inSpaces(['ws1']).map((x) => x.version)).toEqual(['v2'])
    expect(t.apply({ type: 'DELETED', object: widgets })).toBe(true)
    expect(t.inSpaces(['ws1'])).toEqual([])
    expect(t.inSpaces(['ws2'])).toHaveLength(1)
    expect(t.retain([])).toBe(true)
    expect(t.inSpaces(['ws2'])).toEqual([])
  })
})
