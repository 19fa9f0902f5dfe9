/**
 * An edge credential's catch-all upsync set (apiGroup, resources, namespaces and names "*") never
 * uploads a control kind into its mailbox (issue 35, breach 1): a Workspace, SyncTarget, Location,
 * EdgePlacement, SinglePlacementSlice, Customizer, Summarizer, SyncerConfig and CRD are each
 * rejected with a message saying so, through the edge API's report route with the edge's own
 * token, nothing of them is stored and no space is made below the mailbox; workload objects and a
 * Namespace the same set selects are still taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueEdgeCredential } from '../../../lib/edge/credentials.ts'
import { CLUSTER_ANNOTATION } from '../../../lib/kube/types.ts'
import { createEdgeFixture, DESIRED, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
let token = ''

const CATCH_ALL = [{ apiGroup: '*', resources: ['*'], namespaces: ['*'], names: ['*'] }]

beforeAll(async () => {
  f = await createEdgeFixture()
  const [ns, dep, cm, sc] = DESIRED()
  const body = { ...(sc?.body ?? {}), spec: { namespaceScope: {}, upsync: CATCH_ALL } }
  await f.rewrite([ns!, dep!, cm!, { ...sc!, body: body as never }])
  token = (await issueEdgeCredential(f.deps.kv, f.mailbox.name)).token
})
afterAll(() => f.close())

const edge = (apiVersion: string, kind: string, name: string, extra = {}) => ({
  apiVersion,
  kind,
  metadata: { name },
  ...extra,
})
const E = 'edge.kcp.io/v1alpha1'
const planted = [
  edge('tenancy.kcp.io/v1alpha1', 'Workspace', 'planted'),
  edge(E, 'SyncTarget', 'planted'),
  edge(E, 'Location', 'planted', {
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: {},
    },
  }),
  edge(E, 'EdgePlacement', 'planted', { spec: { locationSelectors: [{}] } }),
  edge(E, 'SinglePlacementSlice', 'planted', { destinations: [] }),
  { ...edge(E, 'Customizer', 'planted'), metadata: { name: 'planted', namespace: 'default' } },
  { ...edge(E, 'Summarizer', 'planted'), metadata: { name: 'planted', namespace: 'default' } },
  edge(E, 'SyncerConfig', 'planted'),
  edge('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
]

describe('a catch-all upsync set', () => {
  it('uploads no control kind, with a rejection naming why, and stores nothing of them', async () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'edge-born', namespace: 'default' },
      data: { a: '1' },
    }
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge-ns' } }
    const res = await f.call(
      'POST',
      `/edge/v1/mailboxes/${f.mailbox.name}/reports`,
      { kind: 'Report', upsync: { apply: [ns, cm, ...planted] } },
      token
    )
    expect(res.status).toBe(200)
    expect(res.body.accepted).toBe(2)
    expect(res.body.rejected).toHaveLength(planted.length)
    for (const [i, r] of (
      res.body.rejected as { ref: { name: string }; message: string }[]
    ).entries()) {
      expect(r.ref.name).toBe(planted[i]?.metadata.name)
      expect(r.message).toMatch(/is a control kind: no upsync set uploads it/)
    }
    const mb = f.mailbox.space.id
    for (const path of [
      `apis/tenancy.kcp.io/v1alpha1/workspaces/planted`,
      `apis/edge.kcp.io/v1alpha1/synctargets/planted`,
      `apis/edge.kcp.io/v1alpha1/locations/planted`,
      `apis/edge.kcp.io/v1alpha1/edgeplacements/planted`,
      `apis/edge.kcp.io/v1alpha1/singleplacementslices/planted`,
      `apis/edge.kcp.io/v1alpha1/namespaces/default/customizers/planted`,
      `apis/edge.kcp.io/v1alpha1/namespaces/default/summarizers/planted`,
      `apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com`,
    ])
      expect((await f.call('GET', `/clusters/${mb}/${path}`)).status, path).toBe(404)
    expect(await f.deps.kv.get('space-path', `${f.mailbox.space.path}:planted`)).toBeUndefined()
    const taken = await f.getCopy('v1/namespaces/default/configmaps/edge-born')
    expect(taken.metadata.annotations?.[CLUSTER_ANNOTATION]).toBe(mb)
  })
})
