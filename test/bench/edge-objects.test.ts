import { describe, expect, it } from 'vitest'
import {
  changeMarker,
  EDGE_NAMESPACE,
  edgeEnv,
  edgeInventory,
  edgeNamespace,
  edgePlacement,
  edgeWorkload,
  markerOf,
  propConfigMap,
} from '../../bench/edge-objects.ts'

describe('edge objects', () => {
  it('names each run apart from the others and from the fan-out phase', () => {
    expect([edgeInventory(100), edgeWorkload(100), edgeEnv(100)]).toEqual([
      'bench-edge-inv-100',
      'bench-edge-wl-100',
      'bench-edge-100',
    ])
    expect(edgeEnv(100)).not.toBe('bench')
    expect(changeMarker(1000, 2)).not.toBe(changeMarker(100, 2))
  })

  it('places the labelled namespace on the run Locations', () => {
    const ns = edgeNamespace()
    const p = edgePlacement(100) as any
    expect(ns.metadata.name).toBe(EDGE_NAMESPACE)
    expect(p.spec.locationSelectors).toEqual([{ matchLabels: { env: 'bench-edge-100' } }])
    expect(p.spec.namespaceSelector.matchLabels).toEqual(ns.metadata.labels)
  })

  it('carries the marker in a ConfigMap of about the requested size', () => {
    const cm = propConfigMap('n100-change-0', 1024)
    expect(cm.metadata).toMatchObject({ name: 'prop', namespace: EDGE_NAMESPACE })
    expect(markerOf(cm)).toBe('n100-change-0')
    expect(JSON.stringify(cm).length).toBeGreaterThan(900)
    expect(JSON.stringify(cm).length).toBeLessThan(1200)
    expect(markerOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} })).toBeUndefined()
  })
})
