/**
 * The hub refuses control kinds in a mailbox space and below it (lib/hub/mailbox-guard.ts), with a
 * 403 kube Status, whoever writes (the admin token here; an edge's upsync goes through the same
 * create path): SyncTargets, Locations, EdgePlacements, SinglePlacementSlices, Customizers,
 * Summarizers, SyncerConfigs, child Workspaces and CRDs, by POST and by server-side apply. What a
 * mailbox legitimately holds stays writable (its `default` Namespace comes with its Workspace;
 * Namespaces and workload objects), and the same kinds stay writable in root:espw itself, in a
 * space of another shape under it and in a workload space.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isMailboxOrBelow } from '../../../lib/hub/mailbox-guard.ts'
import { ensureSpace } from '../../../lib/hub/spaces.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'

const MB = 'abc123-mb-0f8fad5b-d9cb-469f-a165-70867728950e'
const E = 'edge.kcp.io/v1alpha1'

let hub: TestHub

const workspace = (name: string) => ({
  apiVersion: 'tenancy.kcp.io/v1alpha1',
  kind: 'Workspace',
  metadata: { name },
})

beforeAll(async () => {
  hub = await createTestHub()
  for (const [parent, name] of [
    ['root:espw', MB],
    ['root', 'wmw'],
    ['root:espw', 'other'],
  ] as const) {
    const res = await hub.call(
      'POST',
      `/clusters/${parent}/apis/tenancy.kcp.io/v1alpha1/workspaces`,
      workspace(name)
    )
    if (res.status !== 201) throw new Error(`workspace ${name}: ${JSON.stringify(res.body)}`)
  }
  // A space below a mailbox, as one made before this release could be.
  await ensureSpace(hub.deps.kv, `root:espw:${MB}:planted`)
})
afterAll(() => hub.close())

type Case = [string, string, Record<string, unknown>]
const control: Case[] = [
  ['synctargets', `apis/${E}/synctargets`, { kind: 'SyncTarget', apiVersion: E }],
  [
    'locations',
    `apis/${E}/locations`,
    {
      kind: 'Location',
      apiVersion: E,
      spec: {
        resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
        instanceSelector: {},
      },
    },
  ],
  [
    'edgeplacements',
    `apis/${E}/edgeplacements`,
    { kind: 'EdgePlacement', apiVersion: E, spec: { locationSelectors: [{}] } },
  ],
  [
    'singleplacementslices',
    `apis/${E}/singleplacementslices`,
    { kind: 'SinglePlacementSlice', apiVersion: E, destinations: [] },
  ],
  [
    'customizers',
    `apis/${E}/namespaces/default/customizers`,
    { kind: 'Customizer', apiVersion: E },
  ],
  [
    'summarizers',
    `apis/${E}/namespaces/default/summarizers`,
    { kind: 'Summarizer', apiVersion: E },
  ],
  ['syncerconfigs', `apis/${E}/syncerconfigs`, { kind: 'SyncerConfig', apiVersion: E }],
  ['workspaces', 'apis/tenancy.kcp.io/v1alpha1/workspaces', workspace('x')],
  [
    'customresourcedefinitions',
    'apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object' } },
          },
        ],
      },
    },
  ],
]

const named = (body: Record<string, unknown>, resource: string) => ({
  ...body,
  metadata: {
    name: resource === 'customresourcedefinitions' ? 'widgets.example.com' : 'planted',
    ...((body.metadata as object | undefined) ?? {}),
  },
})

describe('isMailboxOrBelow', () => {
  it.each([
    [`root:espw:${MB}`, true],
    [`root:espw:${MB}:planted`, true],
    [`root:espw:${MB}:a:b`, true],
    ['root:espw', false],
    ['root:espw:other', false],
    [`root:other:${MB}`, false],
    ['root', false],
  ])('%s -> %s', (path, want) => expect(isMailboxOrBelow(path)).toBe(want))
})

describe('control kinds in a mailbox space', () => {
  it.each(control)(
    'refuses creating %s there and below it, with a 403 Status',
    async (resource, path, body) => {
      for (const space of [`root:espw:${MB}`, `root:espw:${MB}:planted`]) {
        const res = await hub.call('POST', `/clusters/${space}/${path}`, named(body, resource))
        expect(res.status, `${space} ${resource}`).toBe(403)
        expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 })
        expect(res.body.message).toMatch(/is a mailbox space .* never a control plane/)
        expect(res.body.details).toMatchObject({ kind: resource })
      }
    }
  )

  it('refuses a server-side apply that would create one', async () => {
    const res = await hub.call(
      'PATCH',
      `/clusters/root:espw:${MB}/apis/${E}/edgeplacements/planted?fieldManager=edge`,
      named(control[2]![2], 'edgeplacements'),
      { contentType: 'application/apply-patch+yaml' }
    )
    expect(res.status).toBe(403)
    expect(res.body.reason).toBe('Forbidden')
  })

  it('keeps what a mailbox holds writable: its default Namespace, Namespaces, workload objects', async () => {
    const mb = `/clusters/root:espw:${MB}`
    expect((await hub.call('GET', `${mb}/api/v1/namespaces/default`)).status).toBe(200)
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge-ns' } }
    expect((await hub.call('POST', `${mb}/api/v1/namespaces`, ns)).status).toBe(201)
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }
    expect((await hub.call('POST', `${mb}/api/v1/namespaces/edge-ns/configmaps`, cm)).status).toBe(
      201
    )
  })

  it('leaves the same kinds writable in root:espw, other spaces under it and workload spaces', async () => {
    const ep = named(control[2]![2], 'edgeplacements')
    for (const space of ['root:espw', 'root:espw:other', 'root:wmw'])
      expect(
        (await hub.call('POST', `/clusters/${space}/apis/${E}/edgeplacements`, ep)).status,
        space
      ).toBe(201)
  })
})
