/**
 * CustomResourceDefinitions on the real local stack: a CRD with two served versions (v1 storage,
 * v2 served) is established and served at once; a custom resource created at v1 reads back at v2
 * with only apiVersion changed (conversion None), both with kubectl and with the raw API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const GROUP = 'e2e.example.com'
const schema = {
  openAPIV3Schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { size: { type: 'integer' }, color: { type: 'string' } },
      },
    },
  },
}
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v2', served: true, storage: false, schema },
    ],
  },
}

let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace('crds') }))
})
afterAll(async () => {
  await stack?.close()
})

describe('a CRD with two served versions', () => {
  it('is established, and a resource created at v1 reads at v2 with the apiVersion changed', async () => {
    ok(await stack.kubectl(['apply', '-f', '-'], { input: JSON.stringify(crd) }))
    ok(
      await stack.kubectl([
        'wait',
        '--for',
        'condition=Established',
        `crd/widgets.${GROUP}`,
        '--timeout',
        '30s',
      ])
    )
    const stored = okJson<KubeObject & { status?: { storedVersions?: string[] } }>(
      await stack.kubectl(['get', 'crd', `widgets.${GROUP}`, '-o', 'json'])
    )
    expect(stored.status?.storedVersions).toEqual(['v1'])

    const widget = {
      apiVersion: `${GROUP}/v1`,
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'crds' },
      spec: { size: 3, color: 'red' },
    }
    ok(await stack.kubectl(['create', '-f', '-'], { input: JSON.stringify(widget) }))

    const atV1 = okJson<KubeObject & { spec?: unknown }>(
      await stack.kubectl(['get', `widgets.v1.${GROUP}`, 'w1', '-n', 'crds', '-o', 'json'])
    )
    const atV2 = okJson<KubeObject & { spec?: unknown }>(
      await stack.kubectl(['get', `widgets.v2.${GROUP}`, 'w1', '-n', 'crds', '-o', 'json'])
    )
    expect(atV1.apiVersion).toBe(`${GROUP}/v1`)
    expect(atV2.apiVersion).toBe(`${GROUP}/v2`)
    expect(atV2.kind).toBe('Widget')
    expect(atV2.spec).toEqual({ size: 3, color: 'red' })
    expect(atV2.metadata.uid).toBe(atV1.metadata.uid)

    const raw = await stack.api(`/clusters/root/apis/${GROUP}/v2/namespaces/crds/widgets/w1`)
    expect(raw.status).toBe(200)
    expect(((await raw.json()) as KubeObject).apiVersion).toBe(`${GROUP}/v2`)
    const list = okJson<{ items: KubeObject[] }>(
      await stack.kubectl(['get', `widgets.v2.${GROUP}`, '-A', '-o', 'json'])
    )
    expect(list.items.map((i) => [i.metadata.name, i.apiVersion])).toEqual([['w1', `${GROUP}/v2`]])
  })

  it('validates custom resources against the version schema and serves discovery for both versions', async () => {
    const bad = {
      apiVersion: `${GROUP}/v2`,
      kind: 'Widget',
      metadata: { name: 'w2', namespace: 'crds' },
      spec: { size: 'big' },
    }
    const r = await stack.kubectl(['create', '-f', '-'], { input: JSON.stringify(bad) })
    expect(r.code).not.toBe(0)
    expect(r.stderr).toContain('spec.size')
    expect((await stack.kubectl(['get', `widgets.${GROUP}`, 'w2', '-n', 'crds'])).code).toBe(1)
    const versions = ok(await stack.kubectl(['api-versions']))
    expect(versions).toContain(`${GROUP}/v1`)
    expect(versions).toContain(`${GROUP}/v2`)
  })

  it('deleting the CRD takes its resources with it', async () => {
    ok(await stack.kubectl(['delete', 'crd', `widgets.${GROUP}`, '--timeout', '60s']))
    const res = await stack.api(`/clusters/root/apis/${GROUP}/v1/namespaces/crds/widgets/w1`)
    expect(res.status).toBe(404)
  })
})
