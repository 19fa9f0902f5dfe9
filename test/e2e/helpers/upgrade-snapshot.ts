/**
 * What an upgrade must serve unchanged: a snapshot of a running stack as its users meet it, taken
 * by the fixture maker (test/fixtures/make-upgrade-fixture.ts) with the release that wrote the
 * fixture and by test/e2e/upgrade.test.ts with the current code over a copy of it. Per space (root,
 * the workload, inventory and mailbox spaces, found by listing Workspaces) the objects of the kinds
 * the fixture holds, read through the hub's API; per mailbox the desired state its agent would be
 * served (with the edge's own token where the fixture has one, else the admin token) and the
 * version-choice memory (the key-value item: it has no API). Lists keep their items and drop their
 * own resourceVersion (the counter moves with any write anywhere); items keep everything; the
 * hub's URL (in Workspace status) reads as HUB_URL, since the port differs between runs.
 */
import { VERSION_MEMORY_NS } from '../../../functions/reconcile-translate/version-memory.ts'
import type { E2eStack } from './stack.ts'
import { openStackStore } from './store-access.ts'

/** The collections read in every space (a 404 is recorded as such: CRDs exist in one space). */
export const SNAPSHOT_COLLECTIONS = [
  '/api/v1/namespaces',
  '/api/v1/configmaps',
  '/api/v1/services',
  '/api/v1/events',
  '/apis/apps/v1/deployments',
  '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  '/apis/e2e.example.com/v1/widgets',
  '/apis/e2e.example.com/v2/widgets',
  '/apis/edge.kcp.io/v1alpha1/edgeplacements',
  '/apis/edge.kcp.io/v1alpha1/synctargets',
  '/apis/edge.kcp.io/v1alpha1/locations',
  '/apis/edge.kcp.io/v1alpha1/syncerconfigs',
  '/apis/tenancy.kcp.io/v1alpha1/workspaces',
] as const

export type Snapshot = {
  spaces: Record<string, Record<string, unknown>>
  desired: Record<string, unknown>
  versionMemory: Record<string, unknown>
}

type Listed = { metadata?: { resourceVersion?: string }; items?: unknown[] }
type Workspace = { metadata: { name: string }; spec: { cluster: string } }

async function readCollection(stack: E2eStack, space: string, path: string): Promise<unknown> {
  const res = await stack.api(`/clusters/${space}${path}`)
  const body = (await res.json()) as Listed & { code?: number; reason?: string }
  if (!res.ok) return { status: res.status, reason: body.reason }
  return body.items ?? []
}

async function workspacesOf(stack: E2eStack, space: string): Promise<Workspace[]> {
  const res = await stack.api(`/clusters/${space}/apis/tenancy.kcp.io/v1alpha1/workspaces`)
  if (!res.ok) throw new Error(`listing workspaces of ${space}: ${res.status}`)
  return ((await res.json()) as { items: Workspace[] }).items
}

/** The snapshot; `edgeTokens` by mailbox name (the others are read with the admin token). */
export async function takeSnapshot(
  stack: E2eStack,
  edgeTokens: Record<string, string>
): Promise<Snapshot> {
  const mailboxes = await workspacesOf(stack, 'root:espw')
  const spaces = [
    'root',
    'root:espw',
    ...(await workspacesOf(stack, 'root')).map((w) => `root:${w.metadata.name}`),
    ...mailboxes.map((w) => `root:espw:${w.metadata.name}`),
  ]
  const out: Snapshot = { spaces: {}, desired: {}, versionMemory: {} }
  for (const space of [...new Set(spaces)].sort()) {
    const collections: Record<string, unknown> = {}
    for (const path of SNAPSHOT_COLLECTIONS)
      collections[path] = await readCollection(stack, space, path)
    out.spaces[space] = collections
  }
  const store = openStackStore(await stack.readInfo())
  try {
    for (const w of [...mailboxes].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
      const name = w.metadata.name
      const res = await stack.api(`/edge/v1/mailboxes/${name}/desired`, {
        ...(edgeTokens[name] ? { token: edgeTokens[name] } : {}),
      })
      out.desired[name] = {
        status: res.status,
        etag: res.headers.get('etag'),
        body: res.ok ? withoutTenants(await res.json()) : await res.text(),
      }
      out.versionMemory[name] =
        (await store.kv.get(VERSION_MEMORY_NS, w.spec.cluster))?.value ?? null
    }
  } finally {
    store.close()
  }
  // Workspace URLs name the hub's port, which differs from run to run.
  return JSON.parse(JSON.stringify(out).replaceAll(stack.url, HUB_URL)) as Snapshot
}

/** What the hub's own URL reads as in a snapshot. */
export const HUB_URL = 'https://hub.invalid'

/**
 * The desired state without its entries' `tenants`, the one field a later release added (issue
 * 35: the spaces an entry comes from, whom the agent applies it as; an agent of the fixture's
 * release ignores it): the snapshot compares what the release that wrote the data served.
 */
function withoutTenants(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { entries?: unknown }).entries))
    return body
  const b = body as { entries: Record<string, unknown>[] }
  return { ...b, entries: b.entries.map(({ tenants: _tenants, ...entry }) => entry) }
}
