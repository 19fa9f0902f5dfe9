/**
 * Tests for server-side apply: creation with FieldsV1 ownership, re-apply, pruning of fields a
 * manager stops applying (unless co-owned), conflicts with other managers (kube's message and
 * causes), force, shared ownership of equal values, keyed/set/atomic lists, before-first-apply,
 * subresources and malformed configurations.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject, KubeObject, ManagedFieldsEntry } from '../../../lib/kube/types.ts'
import { recordUpdate, serverSideApply } from '../../../lib/patch/server-side-apply.ts'
import { failure } from '../../helpers/api-error.ts'

const T0 = '2026-01-01T00:00:00Z'
const T1 = '2026-01-01T00:01:00Z'
const T2 = '2026-01-01T00:02:00Z'

const configMap = (
  data: Record<string, string>,
  metadata: Partial<KubeObject['metadata']> = {}
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'default', ...metadata },
  data,
})

const stored = (obj: KubeObject): KubeObject => ({
  ...obj,
  metadata: { uid: 'u1', resourceVersion: '7', creationTimestamp: T0, ...obj.metadata },
})

const entry = (
  manager: string,
  fieldsV1: JsonObject,
  more: Partial<ManagedFieldsEntry> = {}
): ManagedFieldsEntry => ({
  manager,
  operation: 'Apply',
  apiVersion: 'v1',
  time: T0,
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...more,
})

const fieldsOf = (obj: KubeObject, manager: string, operation = 'Apply') =>
  obj.metadata.managedFields?.find((e) => e.manager === manager && e.operation === operation)
    ?.fieldsV1

describe('serverSideApply: create', () => {
  it('creates the object and records the applied fields', () => {
    const out = serverSideApply({
      applied: configMap({ a: '1' }, { labels: { app: 'x' }, annotations: { note: 'n' } }),
      manager: 'kubectl',
      force: false,
      now: T0,
    })
    expect(out.data).toEqual({ a: '1' })
    expect(out.metadata.name).toBe('cm')
    expect(out.metadata.managedFields).toEqual([
      entry('kubectl', {
        'f:data': { 'f:a': {} },
        'f:metadata': { 'f:annotations': { 'f:note': {} }, 'f:labels': { 'f:app': {} } },
      }),
    ])
  })

  it('records keyed items with "." and their key fields, ports keyed with the default protocol', () => {
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }], args: ['-v'] },
            ],
            tolerations: [{ key: 'k' }],
          },
        },
      },
    }
    const out = serverSideApply({ applied: deployment, manager: 'kubectl', force: false, now: T0 })
    expect(fieldsOf(out, 'kubectl')).toEqual({
      'f:spec': {
        'f:replicas': {},
        'f:selector': { 'f:matchLabels': { 'f:app': {} } },
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"app"}': {
                '.': {},
                'f:args': {},
                'f:image': {},
                'f:name': {},
                'f:ports': {
                  'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                },
              },
            },
            'f:tolerations': {},
          },
        },
      },
    })
    expect(out.metadata.managedFields?.[0]?.apiVersion).toBe('apps/v1')
  })

  it('drops nulls and server-owned metadata from the configuration', () => {
    const applied = configMap({ a: '1' }, { uid: 'x', resourceVersion: '3', generation: 4 })
    applied.binaryData = null
    const out = serverSideApply({ applied, manager: 'm', force: false, now: T0 })
    expect(out.binaryData).toBeUndefined()
    expect(out.metadata.uid).toBeUndefined()
    expect(out.metadata.resourceVersion).toBeUndefined()
    expect(out.metadata.generation).toBeUndefined()
  })
})

describe('serverSideApply: update', () => {
  const first = serverSideApply({
    applied: configMap({ a: '1', b: '2' }),
    manager: 'alice',
    force: false,
    now: T0,
  })
  const live = stored(first)

  it('re-applying the same configuration changes nothing, not even the time', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '1', b: '2' }),
      manager: 'alice',
      force: false,
      now: T1,
    })
    expect(out).toEqual(live)
  })

  it('keeps the server-owned metadata of the live object', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '9', b: '2' }),
      manager: 'alice',
      force: false,
      now: T1,
    })
    expect(out.metadata).toMatchObject({ uid: 'u1', resourceVersion: '7', creationTimestamp: T0 })
    expect(out.data).toEqual({ a: '9', b: '2' })
    expect(out.metadata.managedFields?.[0]?.time).toBe(T1)
  })

  it('prunes fields the manager no longer applies', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '1' }),
      manager: 'alice',
      force: false,
      now: T1,
    })
    expect(out.data).toEqual({ a: '1' })
    expect(fieldsOf(out, 'alice')).toEqual({ 'f:data': { 'f:a': {} } })
  })

  it('removes maps emptied by pruning', () => {
    const labelled = stored(
      serverSideApply({
        applied: configMap({ a: '1' }, { labels: { x: '1' } }),
        manager: 'alice',
        force: false,
        now: T0,
      })
    )
    const out = serverSideApply({
      live: labelled,
      applied: configMap({ a: '1' }),
      manager: 'alice',
      force: false,
      now: T1,
    })
    expect(out.metadata.labels).toBeUndefined()
  })

  it('does not prune fields another manager also applies', () => {
    const shared = stored(
      serverSideApply({
        live,
        applied: configMap({ b: '2' }),
        manager: 'bob',
        force: false,
        now: T1,
      })
    )
    expect(fieldsOf(shared, 'bob')).toEqual({ 'f:data': { 'f:b': {} } })
    expect(fieldsOf(shared, 'alice')).toEqual({ 'f:data': { 'f:a': {}, 'f:b': {} } })
    const out = serverSideApply({
      live: shared,
      applied: configMap({ a: '1' }),
      manager: 'alice',
      force: false,
      now: T2,
    })
    expect(out.data).toEqual({ a: '1', b: '2' })
    expect(fieldsOf(out, 'alice')).toEqual({ 'f:data': { 'f:a': {} } })
    expect(fieldsOf(out, 'bob')).toEqual({ 'f:data': { 'f:b': {} } })
  })

  it('fails with 409 when another manager owns a changed field, as kube words it', () => {
    const csa = stored({
      ...configMap({ a: '1' }),
      metadata: {
        name: 'cm',
        namespace: 'default',
        managedFields: [
          entry(
            'kubectl-client-side-apply',
            { 'f:data': { '.': {}, 'f:a': {} } },
            { operation: 'Update' }
          ),
        ],
      },
    })
    const err = failure(() =>
      serverSideApply({
        live: csa,
        applied: configMap({ a: '2' }),
        manager: 'kubectl',
        force: false,
        now: T1,
      })
    )
    expect(err.code).toBe(409)
    expect(err.reason).toBe('Conflict')
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.a'
    )
    expect(err.details?.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using v1',
        field: '.data.a',
      },
    ])
  })

  it('lists several conflicts grouped by manager', () => {
    const two = stored({
      ...configMap({ a: '1', b: '1', c: '1' }),
      metadata: {
        name: 'cm',
        managedFields: [
          entry('x', { 'f:data': { 'f:b': {}, 'f:a': {} } }),
          entry('y', { 'f:data': { 'f:c': {} } }, { operation: 'Update', subresource: 'status' }),
        ],
      },
    })
    const err = failure(() =>
      serverSideApply({
        live: two,
        applied: configMap({ a: '2', b: '2', c: '2' }),
        manager: 'z',
        force: false,
        now: T1,
      })
    )
    expect(err.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "x":\n- .data.a\n- .data.b\n' +
        'conflicts with "y" with subresource "status" using v1:\n- .data.c'
    )
    expect(err.details?.causes).toHaveLength(3)
  })

  it('shares ownership when the applied value equals the live one', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '1' }),
      manager: 'bob',
      force: false,
      now: T1,
    })
    expect(fieldsOf(out, 'alice')).toEqual({ 'f:data': { 'f:a': {}, 'f:b': {} } })
    expect(fieldsOf(out, 'bob')).toEqual({ 'f:data': { 'f:a': {} } })
  })

  it('force takes ownership of conflicting fields', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '2' }),
      manager: 'bob',
      force: true,
      now: T1,
    })
    expect(out.data).toEqual({ a: '2', b: '2' })
    expect(fieldsOf(out, 'alice')).toEqual({ 'f:data': { 'f:b': {} } })
    expect(fieldsOf(out, 'bob')).toEqual({ 'f:data': { 'f:a': {} } })
  })

  it('drops a manager that owns nothing any more', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ a: '2', b: '3' }),
      manager: 'bob',
      force: true,
      now: T1,
    })
    expect(out.metadata.managedFields?.map((e) => e.manager)).toEqual(['bob'])
  })

  it('treats an object without managedFields as owned by before-first-apply', () => {
    const legacy = stored(configMap({ a: '1' }))
    const err = failure(() =>
      serverSideApply({
        live: legacy,
        applied: configMap({ a: '2' }),
        manager: 'kubectl',
        force: false,
        now: T1,
      })
    )
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a'
    )
    const out = serverSideApply({
      live: legacy,
      applied: configMap({ b: '2' }),
      manager: 'kubectl',
      force: false,
      now: T1,
    })
    expect(out.metadata.managedFields?.map((e) => [e.manager, e.operation])).toEqual([
      ['kubectl', 'Apply'],
      ['before-first-apply', 'Update'],
    ])
  })

  it('keeps a separate entry per subresource', () => {
    const out = serverSideApply({
      live,
      applied: configMap({ c: '3' }),
      manager: 'alice',
      force: false,
      now: T1,
      subresource: 'status',
    })
    const alice = out.metadata.managedFields?.filter((e) => e.manager === 'alice')
    expect(alice?.map((e) => e.subresource)).toEqual([undefined, 'status'])
    expect(out.data).toEqual({ a: '1', b: '2', c: '3' })
  })

  it('does not mutate its inputs', () => {
    const before = structuredClone(live)
    const applied = configMap({ a: '5' })
    const appliedCopy = structuredClone(applied)
    serverSideApply({ live, applied, manager: 'alice', force: false, now: T1 })
    expect(live).toEqual(before)
    expect(applied).toEqual(appliedCopy)
  })
})

describe('serverSideApply: lists', () => {
  const podSpec = (containers: JsonObject[], extra: JsonObject = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers, ...extra },
  })

  const base = stored(
    serverSideApply({
      applied: podSpec([{ name: 'app', image: 'a:1' }], { tolerations: [{ key: 'a' }] }),
      manager: 'alice',
      force: false,
      now: T0,
    })
  )
  // Bob adds a sidecar with an ordinary update (e.g. an injector).
  const withSidecar = stored(
    recordUpdate({
      before: base,
      after: {
        ...base,
        spec: {
          containers: [
            { name: 'app', image: 'a:1' },
            { name: 'side', image: 's' },
          ],
          tolerations: [{ key: 'a' }],
        },
      },
      manager: 'injector',
      operation: 'Update',
      now: T1,
    })
  )

  it('merges keyed lists by key and keeps items of other managers', () => {
    const out = serverSideApply({
      live: withSidecar,
      applied: podSpec([{ name: 'app', image: 'a:2' }], { tolerations: [{ key: 'a' }] }),
      manager: 'alice',
      force: false,
      now: T2,
    })
    expect(out.spec).toEqual({
      containers: [
        { name: 'app', image: 'a:2' },
        { name: 'side', image: 's' },
      ],
      tolerations: [{ key: 'a' }],
    })
    expect(fieldsOf(out, 'injector', 'Update')).toEqual({
      'f:spec': {
        'f:containers': { 'k:{"name":"side"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
      },
    })
  })

  it('removes list items the manager stops applying, atomic lists whole', () => {
    const two = stored(
      serverSideApply({
        live: base,
        applied: podSpec(
          [
            { name: 'app', image: 'a:1' },
            { name: 'extra', image: 'e' },
          ],
          { tolerations: [{ key: 'a' }] }
        ),
        manager: 'alice',
        force: false,
        now: T1,
      })
    )
    const out = serverSideApply({
      live: two,
      applied: podSpec([{ name: 'app', image: 'a:1' }]),
      manager: 'alice',
      force: false,
      now: T2,
    })
    expect(out.spec).toEqual({ containers: [{ name: 'app', image: 'a:1' }] })
  })

  it('keeps an item another manager has fields in, with its key, when its applier lets go', () => {
    const tuned = stored(
      recordUpdate({
        before: base,
        after: {
          ...base,
          spec: {
            containers: [{ name: 'app', image: 'a:1', resources: { limits: { cpu: '1' } } }],
            tolerations: [{ key: 'a' }],
          },
        },
        manager: 'tuner',
        operation: 'Update',
        now: T1,
      })
    )
    const out = serverSideApply({
      live: tuned,
      applied: podSpec([{ name: 'other', image: 'o' }]),
      manager: 'alice',
      force: false,
      now: T2,
    })
    expect(out.spec).toEqual({
      containers: [
        { name: 'app', resources: { limits: { cpu: '1' } } },
        { name: 'other', image: 'o' },
      ],
    })
  })

  it('conflicts on a keyed item field with the key in the path', () => {
    const err = failure(() =>
      serverSideApply({
        live: withSidecar,
        applied: podSpec([{ name: 'side', image: 's:2' }]),
        manager: 'alice',
        force: false,
        now: T2,
      })
    )
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "injector" using v1: .spec.containers[name="side"].image'
    )
  })

  it('merges set lists and owns the values it applies', () => {
    const live = stored(configMap({}, { finalizers: ['a', 'b'] }))
    live.metadata.managedFields = [
      entry('other', { 'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } } }),
    ]
    const out = serverSideApply({
      live,
      applied: configMap({}, { finalizers: ['b', 'c'] }),
      manager: 'me',
      force: false,
      now: T1,
    })
    expect(out.metadata.finalizers).toEqual(['a', 'b', 'c'])
    expect(fieldsOf(out, 'me')).toEqual({
      'f:data': {},
      'f:metadata': { 'f:finalizers': { 'v:"b"': {}, 'v:"c"': {} } },
    })
  })

  const bad: { name: string; applied: KubeObject; message: string }[] = [
    {
      name: 'item without its key',
      applied: podSpec([{ image: 'x' }]),
      message: '.spec.containers: every item of this associative list needs the key fields "name"',
    },
    {
      name: 'duplicate keys',
      applied: podSpec([{ name: 'a' }, { name: 'a' }]),
      message: 'no two items may have the same key',
    },
    {
      name: 'objects in a set list',
      applied: configMap({}, { finalizers: [{ a: 1 } as unknown as string] }),
      message: '.metadata.finalizers: a set list must hold distinct primitive values',
    },
    {
      name: 'managedFields in the configuration',
      applied: configMap({}, { managedFields: [entry('x', {})] }),
      message: 'metadata.managedFields must be nil',
    },
  ]

  it.each(bad)('400 BadRequest: $name', ({ applied, message }) => {
    const err = failure(() => serverSideApply({ applied, manager: 'm', force: false, now: T0 }))
    expect(err.code).toBe(400)
    expect(err.message).toContain(message)
  })
})
