import { describe, expect, it } from 'vitest'
import { applyConfigOf, viewHash, viewOf } from '../../../lib/edge-agent/apply-config.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'

describe('applyConfigOf', () => {
  it('keeps content, labels and annotations; drops status, server metadata and kcp keys', () => {
    const body = {
      apiVersion: 'apps/v1beta1',
      kind: 'Deployment',
      metadata: {
        name: 'ignored',
        uid: 'u',
        resourceVersion: '9',
        labels: { app: 'a', 'kcp.io/x': 'y' },
        annotations: { 'kcp.io/cluster': 'abc', note: 'n', 'edge.kcp.io/downsynced': 'false' },
      },
      spec: { replicas: 2 },
      status: { replicas: 1 },
    }
    const t = { group: 'apps', version: 'v1', namespace: 'ns', name: 'web', kind: 'Deployment' }
    expect(applyConfigOf(body, t)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'ns',
        labels: { app: 'a' },
        annotations: { note: 'n', 'edge.kcp.io/downsynced': 'true' },
      },
      spec: { replicas: 2 },
    })
    const ns = applyConfigOf(
      { metadata: {} },
      { ...t, group: '', namespace: '', kind: 'Namespace' }
    )
    expect(ns).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'web', annotations: { 'edge.kcp.io/downsynced': 'true' } },
    })
  })
})

describe('viewOf', () => {
  const config = {
    metadata: { name: 'x', labels: { a: '1' } },
    spec: { ports: [{ port: 80 }], selector: { app: 'a' } },
  }
  it('takes only the configured paths', () => {
    const live = {
      metadata: { name: 'x', uid: 'u', labels: { a: '1', b: '2' } },
      spec: {
        ports: [{ port: 80, protocol: 'TCP' }, { port: 81 }],
        selector: { app: 'a' },
        clusterIP: '1',
      },
      status: { x: 1 },
    }
    expect(viewOf(live, config)).toEqual(config)
  })
  it.each([
    ['an owned value changed', { metadata: { name: 'x', labels: { a: '2' } }, spec: config.spec }],
    ['an owned value removed', { metadata: { name: 'x' }, spec: config.spec }],
    [
      'a list item changed',
      { metadata: config.metadata, spec: { ...config.spec, ports: [{ port: 8 }] } },
    ],
  ])('differs when %s', (_what, live) => {
    const a = viewHash(config as unknown as KubeObject, config as unknown as KubeObject)
    expect(viewHash(live as unknown as KubeObject, config as unknown as KubeObject)).not.toBe(a)
  })
})
