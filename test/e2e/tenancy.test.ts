/**
 * Tenants stay in their lanes (issue 35), end to end through `npm start` (two simulated edges,
 * florin and guilder, env=prod) and real kubectl, as tenants with their own tokens: a fresh stack
 * holds the Inventory imw-1 and the PlacementGrant local; a tenant's own SyncTarget and Location
 * labelled like a real edge stay inert (no mailbox, the SyncTarget's status says why) and capture
 * nobody's placement; under per-team grants a placement selects only the Locations its team is
 * granted, and an ungranted inventory's labels show neither in its status nor in a dry-run preview;
 * a tenant cannot forge the where step's answer (a SinglePlacementSlice) in its own space; and an
 * Inventory deleted takes its edges' mailboxes away at once (the relay wakes the mailbox step; the
 * cron's resync is put off for the run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
const WAIT = 90_000
const tokens: Record<string, string> = {}

/** kubectl as tenant `team` in its space `root:<team>`. */
const as = (team: string, args: string[], input?: string) =>
  stack.kubectl(
    ['--token', tokens[team] ?? '', '--server', `${stack.url}/clusters/root:${team}`, ...args],
    input === undefined ? {} : { input }
  )

const token = (name: string, space: string) => `apiVersion: auth.edgeplane.io/v1alpha1
kind: Token
metadata: {name: ${name}}
spec: {spaces: ["${space}"]}
`
const fakeEdge = `apiVersion: edge.kcp.io/v1alpha1
kind: SyncTarget
metadata: {name: fake, labels: {id: fake, loc-name: florin, env: prod}}
---
apiVersion: edge.kcp.io/v1alpha1
kind: Location
metadata: {name: fake, labels: {loc-name: florin, env: prod}}
spec:
  resource: {group: edge.kcp.io, version: v1alpha1, resource: synctargets}
  instanceSelector: {matchLabels: {id: fake}}
`
const placement = (name: string) => `apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: ${name}}
spec:
  locationSelectors: [{matchLabels: {loc-name: florin}}]
  namespaceSelector: {matchLabels: {app: ${name}}}
`
const grants = `apiVersion: tenancy.edgeplane.io/v1alpha1
kind: PlacementGrant
metadata: {name: team-a}
spec:
  workloadSpaces: ["root:team-a"]
  locations: [{inventory: "root:imw-1"}]
---
apiVersion: tenancy.edgeplane.io/v1alpha1
kind: PlacementGrant
metadata: {name: team-b}
spec:
  workloadSpaces: ["root:team-b"]
  locations: [{inventory: "root:imw-1", selector: {matchLabels: {env: prod}}}]
---
apiVersion: tenancy.edgeplane.io/v1alpha1
kind: Inventory
metadata: {name: imw-2}
spec: {space: "root:imw-2"}
`
const hiddenEdge = `apiVersion: edge.kcp.io/v1alpha1
kind: Location
metadata: {name: hidden, labels: {loc-name: florin, secret: b-1234}}
spec:
  resource: {group: edge.kcp.io, version: v1alpha1, resource: synctargets}
  instanceSelector: {matchLabels: {id: hidden}}
---
apiVersion: edge.kcp.io/v1alpha1
kind: SyncTarget
metadata: {name: hidden, labels: {id: hidden}}
`

type Obj = KubeObject & { status?: any; destinations?: any[] }

beforeAll(async () => {
  // The cron's resync is put off for the run: a change of the tenancy policy must reach the steps
  // through the relay's watch of the tenancy kinds, not through the next resync.
  stack = await startStack({
    edges: 'florin:env=prod,guilder:env=prod',
    env: { EDGEPLANE_CRON_PERIOD: '3600' },
  })
  for (const team of ['team-a', 'team-b', 'imw-2']) {
    ok(await stack.kubectl(['create', '-f', '-'], { input: workspace(team) }))
  }
  for (const team of ['team-a', 'team-b']) {
    const issued = await stack.kubectl(['create', '-f', '-', '-o', 'jsonpath={.status.token}'], {
      input: token(team, `root:${team}`),
    })
    tokens[team] = ok(issued).trim()
  }
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

describe('tenancy through npm start', () => {
  it('starts granted: the Inventory imw-1 and the PlacementGrant local, no single-team warning', async () => {
    const listed = okJson<{ items: Obj[] }>(
      await stack.kubectl(['get', 'inventories,placementgrants', '-o', 'json'])
    )
    const names = listed.items.map((o) => `${o.kind}/${o.metadata.name}`).sort()
    expect(names).toEqual(['Inventory/imw-1', 'PlacementGrant/local'])
    const issued = await stack.kubectl(['create', '-f', '-', '-o', 'name'], {
      input: token('carol', 'root:team-a'),
    })
    expect(issued.code).toBe(0)
    expect(issued.stderr).not.toContain('single-team')
  })

  it("keeps a tenant's own SyncTarget inert: no mailbox, and its status says why", async () => {
    ok(await as('team-a', ['apply', '-f', '-'], fakeEdge))
    await eventually(async () => {
      const st = okJson<Obj>(await as('team-a', ['get', 'synctarget', 'fake', '-o', 'json']))
      const cond = (st.status?.conditions ?? []).find((c: any) => c.type === 'Inventory')
      expect(cond).toMatchObject({ status: 'False', reason: 'NotInventorySpace' })
      const loc = okJson<Obj>(await as('team-a', ['get', 'location', 'fake', '-o', 'json']))
      const held = (loc.status?.conditions ?? []).find((c: any) => c.type === 'Inventory')
      expect(held).toMatchObject({ status: 'False', reason: 'NotInventorySpace' })
    }, WAIT)
    const mailboxes = okJson<{ items: Obj[] }>(
      await stack.kubectl(['--context', 'root:espw', 'get', 'workspaces', '-o', 'json'])
    )
    const targets = mailboxes.items.map(
      (w) => w.metadata.annotations?.['edge.kcp.io/sync-target-name']
    )
    expect(targets.sort()).toEqual(['florin', 'guilder'])
  })

  it("a placement selects only its team's granted Locations; others' labels never show", async () => {
    ok(await stack.kubectl(['delete', 'placementgrant', 'local']))
    ok(await stack.kubectl(['apply', '-f', '-'], { input: grants }))
    ok(
      await stack.kubectl(['--server', `${stack.url}/clusters/root:imw-2`, 'apply', '-f', '-'], {
        input: hiddenEdge,
      })
    )
    ok(await as('team-b', ['apply', '-f', '-'], placement('shop')))
    await eventually(async () => {
      const ep = okJson<Obj>(await as('team-b', ['get', 'edgeplacement', 'shop', '-o', 'json']))
      expect(ep.status?.matchingLocationCount).toBe(1)
      const slice = okJson<Obj>(
        await as('team-b', ['get', 'singleplacementslice', 'shop', '-o', 'json'])
      )
      expect(slice.destinations?.map((d) => d.syncTargetName)).toEqual(['florin'])
      expect(JSON.stringify(ep.status)).not.toContain('b-1234')
      expect(JSON.stringify(ep.status)).not.toContain('fake')
    }, WAIT)
    const preview = okJson<Obj>(
      await as(
        'team-b',
        ['create', '--dry-run=server', '-o', 'json', '-f', '-'],
        placement('shop2')
      )
    )
    expect(preview.status?.preview?.locations?.count).toBe(1)
    expect(JSON.stringify(preview)).not.toContain('b-1234')
    expect(JSON.stringify(preview)).not.toContain('hidden')
  })

  it('refuses a tenant forging a SinglePlacementSlice in its own space', async () => {
    const slice = okJson<Obj>(
      await as('team-b', ['get', 'singleplacementslice', 'shop', '-o', 'json'])
    )
    const forged = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'SinglePlacementSlice',
      metadata: { name: 'forged' },
      destinations: slice.destinations,
    }
    const made = await as('team-b', ['create', '-f', '-'], JSON.stringify(forged))
    expect(made.code).not.toBe(0)
    expect(made.stderr).toContain('Forbidden')
    const edited = await as('team-b', ['label', 'singleplacementslice', 'shop', 'forged=yes'])
    expect(edited.code).not.toBe(0)
    expect(edited.stderr).toContain('Forbidden')
  })

  it('deleting an Inventory takes its edges away without waiting for a resync', async () => {
    const mailboxTargets = async () =>
      okJson<{ items: Obj[] }>(
        await stack.kubectl(['--context', 'root:espw', 'get', 'workspaces', '-o', 'json'])
      )
        .items.map((w) => w.metadata.annotations?.['edge.kcp.io/sync-target-name'])
        .sort()
    await eventually(
      async () => expect(await mailboxTargets()).toEqual(['florin', 'guilder', 'hidden']),
      WAIT
    )
    ok(await stack.kubectl(['delete', 'inventory', 'imw-2']))
    const imw2 = ['--server', `${stack.url}/clusters/root:imw-2`]
    await eventually(async () => {
      expect(await mailboxTargets()).toEqual(['florin', 'guilder'])
      const st = okJson<Obj>(
        await stack.kubectl([...imw2, 'get', 'synctarget', 'hidden', '-o', 'json'])
      )
      const cond = (st.status?.conditions ?? []).find((c: any) => c.type === 'Inventory')
      expect(cond).toMatchObject({ status: 'False', reason: 'NotInventorySpace' })
    }, WAIT)
  })
})
