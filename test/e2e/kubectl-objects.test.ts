/**
 * kubectl against the real local stack: create, apply (client-side, twice, with a removed key),
 * get -o json (kcp.io/cluster annotation, resourceVersion), label, annotate, the three patch types
 * (strategic on a two-container Deployment), server-side apply with managedFields, and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap, namespace } from './helpers/manifests.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

const NS = 'e2e-objects'
let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
  ok(await stack.kubectl(['create', '-f', '-'], { input: namespace(NS) }))
})
afterAll(async () => {
  await stack?.close()
})

const cm = (name: string, data: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data })

const getCm = async (name: string) =>
  okJson<KubeObject & { data?: Record<string, string> }>(
    await stack.kubectl(['get', 'configmap', name, '-n', NS, '-o', 'json', '--show-managed-fields'])
  )

describe('kubectl object verbs', () => {
  it('create -f, then get -o json shows the kcp.io/cluster annotation and a resourceVersion', async () => {
    const out = ok(await stack.kubectl(['create', '-f', '-'], { input: cm('created', { a: '1' }) }))
    expect(out).toContain('configmap/created created')
    const obj = await getCm('created')
    expect(obj.data).toEqual({ a: '1' })
    expect(obj.metadata.annotations?.['kcp.io/cluster']).toBe('root')
    expect(obj.metadata.resourceVersion).toMatch(/^\d+$/)
    expect(obj.metadata.uid).toBeTruthy()
    const again = await stack.kubectl(['create', '-f', '-'], { input: cm('created', { a: '1' }) })
    expect(again.code).not.toBe(0)
    expect(again.stderr).toContain('AlreadyExists')
  })

  it('apply -f twice: the second apply updates data and removes a key', async () => {
    expect(
      ok(await stack.kubectl(['apply', '-f', '-'], { input: cm('applied', { a: '1', b: '2' }) }))
    ).toContain('created')
    const first = await getCm('applied')
    expect(first.data).toEqual({ a: '1', b: '2' })
    expect(
      first.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']
    ).toContain('"b":"2"')
    expect(
      ok(await stack.kubectl(['apply', '-f', '-'], { input: cm('applied', { a: '3' }) }))
    ).toContain('configured')
    const second = await getCm('applied')
    expect(second.data).toEqual({ a: '3' })
    expect(Number(second.metadata.resourceVersion)).toBeGreaterThan(
      Number(first.metadata.resourceVersion)
    )
    expect(
      ok(await stack.kubectl(['apply', '-f', '-'], { input: cm('applied', { a: '3' }) }))
    ).toContain('unchanged')
  })

  it('label and annotate', async () => {
    ok(await stack.kubectl(['create', '-f', '-'], { input: configMap(NS, 'tagged', { k: 'v' }) }))
    ok(await stack.kubectl(['label', 'configmap', 'tagged', '-n', NS, 'env=prod', 'tier=edge']))
    ok(await stack.kubectl(['annotate', 'configmap', 'tagged', '-n', NS, 'note=hello world']))
    const obj = await getCm('tagged')
    expect(obj.metadata.labels).toEqual({ env: 'prod', tier: 'edge' })
    expect(obj.metadata.annotations?.note).toBe('hello world')
    ok(await stack.kubectl(['label', 'configmap', 'tagged', '-n', NS, 'tier-']))
    expect((await getCm('tagged')).metadata.labels).toEqual({ env: 'prod' })
    const selected = okJson<{ items: KubeObject[] }>(
      await stack.kubectl(['get', 'cm', '-n', NS, '-l', 'env=prod', '-o', 'json'])
    )
    expect(selected.items.map((i) => i.metadata.name)).toEqual(['tagged'])
  })

  it('patch --type merge and --type json', async () => {
    ok(
      await stack.kubectl(['create', '-f', '-'], {
        input: configMap(NS, 'patched', { a: '1', b: '2' }),
      })
    )
    ok(
      await stack.kubectl([
        'patch',
        'configmap',
        'patched',
        '-n',
        NS,
        '--type',
        'merge',
        '-p',
        '{"data":{"c":"3","b":null}}',
      ])
    )
    expect((await getCm('patched')).data).toEqual({ a: '1', c: '3' })
    const ops = JSON.stringify([
      { op: 'replace', path: '/data/a', value: '9' },
      { op: 'add', path: '/metadata/labels', value: { patched: 'json' } },
    ])
    ok(
      await stack.kubectl(['patch', 'configmap', 'patched', '-n', NS, '--type', 'json', '-p', ops])
    )
    const obj = await getCm('patched')
    expect(obj.data).toEqual({ a: '9', c: '3' })
    expect(obj.metadata.labels).toEqual({ patched: 'json' })
    const failing = await stack.kubectl([
      'patch',
      'configmap',
      'patched',
      '-n',
      NS,
      '--type',
      'json',
      '-p',
      '[{"op":"test","path":"/data/a","value":"0"}]',
    ])
    expect(failing.code).not.toBe(0)
    expect((await getCm('patched')).data).toEqual({ a: '9', c: '3' })
  })

  it('strategic merge patch (the default) changes one container of a two-container Deployment', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'two', namespace: NS },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'two' } },
        template: {
          metadata: { labels: { app: 'two' } },
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1.25' },
              { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
            ],
          },
        },
      },
    }
    ok(await stack.kubectl(['create', '-f', '-'], { input: JSON.stringify(deployment) }))
    const patch =
      '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}'
    ok(await stack.kubectl(['patch', 'deployment', 'two', '-n', NS, '-p', patch]))
    const obj = okJson<{ metadata: { generation?: number }; spec: typeof deployment.spec }>(
      await stack.kubectl(['get', 'deployment', 'two', '-n', NS, '-o', 'json'])
    )
    expect(obj.spec.template.spec.containers).toEqual([
      expect.objectContaining({ name: 'web', image: 'nginx:1.27' }),
      expect.objectContaining({
        name: 'sidecar',
        image: 'busybox:1.36',
        args: ['sleep', 'infinity'],
      }),
    ])
    expect(obj.metadata.generation).toBe(2)
    ok(await stack.kubectl(['set', 'image', 'deployment/two', '-n', NS, 'sidecar=busybox:1.37']))
    const images = ok(
      await stack.kubectl([
        'get',
        'deployment',
        'two',
        '-n',
        NS,
        '-o',
        'jsonpath={.spec.template.spec.containers[*].image}',
      ])
    )
    expect(images).toBe('nginx:1.27 busybox:1.37')
  })

  it('apply --server-side records the field manager in managedFields', async () => {
    const out = ok(
      await stack.kubectl(['apply', '--server-side', '--field-manager', 'e2e-ssa', '-f', '-'], {
        input: cm('ssa', { x: '1' }),
      })
    )
    expect(out).toContain('serverside-applied')
    const obj = await getCm('ssa')
    expect(obj.data).toEqual({ x: '1' })
    const managers = (obj.metadata.managedFields ?? []) as {
      manager?: string
      operation?: string
      fieldsV1?: Record<string, unknown>
    }[]
    const mine = managers.find((m) => m.manager === 'e2e-ssa')
    expect(mine?.operation).toBe('Apply')
    expect(JSON.stringify(mine?.fieldsV1)).toContain('f:x')
    ok(
      await stack.kubectl(['apply', '--server-side', '--field-manager', 'e2e-ssa', '-f', '-'], {
        input: cm('ssa', { y: '2' }),
      })
    )
    expect((await getCm('ssa')).data).toEqual({ y: '2' })
  })

  it('imperative create commands (protobuf bodies) create what they say', async () => {
    ok(await stack.kubectl(['create', 'namespace', 'imperative']))
    ok(
      await stack.kubectl([
        'create',
        'configmap',
        'lit',
        '-n',
        'imperative',
        '--from-literal=a=1',
        '--from-literal=b=2',
      ])
    )
    ok(
      await stack.kubectl([
        'create',
        'deployment',
        'web',
        '-n',
        'imperative',
        '--image=nginx:1.27',
        '--replicas=2',
      ])
    )
    const ns = okJson<KubeObject & { status?: { phase?: string } }>(
      await stack.kubectl(['get', 'namespace', 'imperative', '-o', 'json'])
    )
    expect(ns.status?.phase).toBe('Active')
    const cm = okJson<KubeObject & { data?: unknown }>(
      await stack.kubectl(['get', 'cm', 'lit', '-n', 'imperative', '-o', 'json'])
    )
    expect(cm.data).toEqual({ a: '1', b: '2' })
    const spec = ok(
      await stack.kubectl([
        'get',
        'deployment',
        'web',
        '-n',
        'imperative',
        '-o',
        'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}',
      ])
    )
    expect(spec).toBe('2 nginx:1.27')
  })

  it('delete removes the object', async () => {
    ok(await stack.kubectl(['create', '-f', '-'], { input: configMap(NS, 'doomed', { k: 'v' }) }))
    expect(ok(await stack.kubectl(['delete', 'configmap', 'doomed', '-n', NS]))).toContain(
      'deleted'
    )
    const gone = await stack.kubectl(['get', 'configmap', 'doomed', '-n', NS])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain('NotFound')
    const names = ok(await stack.kubectl(['get', 'cm', '-n', NS, '-o', 'name']))
    expect(names).not.toContain('configmap/doomed')
    expect(names).toContain('configmap/created')
  })
})
