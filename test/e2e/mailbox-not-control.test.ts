/**
 * A mailbox is never a control plane, through `npm start` with two simulated edges and real
 * kubectl (issue 35, breach 1): a tenant gives florin a catch-all upsync set (apiGroup, resources,
 * namespaces and names "*"), and florin's own edge credential reports an upload of a Namespace, a
 * Workspace, a SyncTarget, a Location and an EdgePlacement into its mailbox (what a compromised
 * agent would send); the edge API takes the Namespace and rejects each control kind with a
 * message, nothing of them is in the mailbox and no space is made below it; and the admin's
 * kubectl meets the hub's own refusal (Forbidden) creating an EdgePlacement there, while creating
 * a ConfigMap there still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod' })
  edges = edgeStack(stack)
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('tenant') }))
  ok(await stack.kubectl([...edges.at('tenant'), 'apply', '-f', '-'], { input: CATCH_ALL }))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

const E = 'edge.kcp.io/v1alpha1'
const CATCH_ALL = `apiVersion: v1
kind: Namespace
metadata: {name: tenant-ns, labels: {app: tenant-ns}}
---
apiVersion: ${E}
kind: EdgePlacement
metadata: {name: catch-all}
spec:
  locationSelectors: [{matchLabels: {loc-name: florin}}]
  namespaceSelector: {matchLabels: {app: tenant-ns}}
  upsync: [{apiGroup: "*", resources: ["*"], namespaces: ["*"], names: ["*"]}]
`
const planted = [
  { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name: 'planted' } },
  { apiVersion: E, kind: 'SyncTarget', metadata: { name: 'planted', labels: { id: 'planted' } } },
  {
    apiVersion: E,
    kind: 'Location',
    metadata: { name: 'planted' },
    spec: {
      resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
      instanceSelector: { matchLabels: { id: 'guilder' } },
    },
  },
  {
    apiVersion: E,
    kind: 'EdgePlacement',
    metadata: { name: 'planted' },
    spec: { locationSelectors: [{}], namespaceSelector: {} },
  },
]

describe('a mailbox through npm start', () => {
  it("refuses the control kinds an edge's credential uploads, keeping its data", async () => {
    const mailbox = (await stack.readInfo()).edges.find((e) => e.name === 'florin')?.mailbox
    const token = await edges.edgeToken('florin')
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge-born' } }
    type Outcome = { accepted: number; rejected: { ref: { name?: string }; message: string }[] }
    let outcome: Outcome = { accepted: 0, rejected: [] }
    // Until the catch-all set has reached the mailbox's SyncerConfig, the Namespace is refused too.
    await eventually(async () => {
      const res = await stack.api(`/edge/v1/mailboxes/${mailbox}/reports`, {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'Report', upsync: { apply: [ns, ...planted] } }),
      })
      expect(res.status).toBe(200)
      outcome = (await res.json()) as Outcome
      expect(outcome.accepted).toBe(1)
    }, 60_000)
    expect(outcome.rejected.map((r) => r.ref.name)).toEqual(planted.map((p) => p.metadata.name))
    for (const r of outcome.rejected) expect(r.message).toMatch(/is a control kind/)
    const at = await edges.mailbox('florin')
    for (const kind of ['workspaces', 'synctargets', 'locations', 'edgeplacements'])
      expect(ok(await stack.kubectl([...at, 'get', kind, '-o', 'name'])).trim(), kind).toBe('')
    expect(ok(await stack.kubectl([...at, 'get', 'namespace', 'edge-born', '-o', 'name']))).toMatch(
      'namespace/edge-born'
    )
  })

  it("answers the admin's kubectl Forbidden for an EdgePlacement in a mailbox, not for a ConfigMap", async () => {
    const at = await edges.mailbox('guilder')
    const ep = `apiVersion: ${E}\nkind: EdgePlacement\nmetadata: {name: by-hand}\nspec: {locationSelectors: [{}]}\n`
    const refused = await stack.kubectl([...at, 'create', '-f', '-'], { input: ep })
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/Forbidden.*mailbox space/)
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: by-hand, namespace: default}\n'
    expect(ok(await stack.kubectl([...at, 'create', '-f', '-'], { input: cm }))).toMatch(
      'configmap/by-hand created'
    )
  })
})
