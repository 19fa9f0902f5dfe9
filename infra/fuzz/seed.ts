/**
 * Seeds the fixture through the hub's own API (so it works against any hub): the fuzz space, the
 * fuzz and victim namespaces in root and that space, the protected ConfigMaps, Secret and
 * Deployment, and an inventory space with two SyncTargets whose mailboxes are made by the mailbox
 * hook and whose edge credentials come from the bootstrap endpoint. `restore` puts back what a
 * request removed, disfigured or bloated (waiting out a namespace's termination), so later
 * requests still aim at something and snapshots stay cheap.
 */
import type { KubeObject } from '../../lib/kube/types.ts'
import { mailboxOf } from '../../lib/reconcile/keys.ts'
import { configMap, prefix, spacePath, type Where } from './fixture.ts'
import { VICTIM_NAMESPACE } from './gen-verbs-endpoints.ts'
import { adminJson, must } from './hub-api.ts'
import type { Target } from './send.ts'
import type { Fixture } from './types.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function workspace(name: string) {
  return { apiVersion: 'tenancy.kcp.io/v1alpha1', kind: 'Workspace', metadata: { name } }
}

function deployment(name: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  }
}

type Seeded = { path: string; collection: string; body: object; kind: string }

function seededObjects(fx: Fixture, where: Where): Seeded[] {
  const p = prefix(fx, where)
  const ns = `${p}/api/v1/namespaces/${fx.namespace}`
  const deps = `${p}/apis/apps/v1/namespaces/${fx.namespace}/deployments`
  return [
    ...fx.configMaps.map((n) => ({
      path: `${ns}/configmaps/${n}`,
      collection: `${ns}/configmaps`,
      body: configMap(n),
      kind: 'ConfigMap',
    })),
    {
      path: `${ns}/secrets/${fx.secret}`,
      collection: `${ns}/secrets`,
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: fx.secret },
        stringData: { s: 'x' },
      },
      kind: 'Secret',
    },
    {
      path: `${deps}/${fx.deployment}`,
      collection: deps,
      body: deployment(fx.deployment),
      kind: 'Deployment',
    },
  ]
}

/** Makes namespace `name` exist and not be terminating (waits up to 60 s for a termination). */
async function ensureNamespace(t: Target, fx: Fixture, where: Where, name: string): Promise<void> {
  const p = prefix(fx, where)
  for (let i = 0; i < 120; i++) {
    const got = await adminJson(t, 'GET', `${p}/api/v1/namespaces/${name}`)
    const ns = got.json as KubeObject | undefined
    if (got.status === 200 && ns?.kind === 'Namespace' && !ns.metadata?.deletionTimestamp) return
    if (got.status === 404) {
      const made = await adminJson(t, 'POST', `${p}/api/v1/namespaces`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      })
      if (made.status === 201 || made.status === 409) continue
      throw new Error(`creating namespace ${name}: ${made.status} ${made.text.slice(0, 200)}`)
    }
    if (got.status === 200 && ns?.kind !== 'Namespace') {
      // disfigured by an accepted identity change: remove it and start over
      await adminJson(t, 'DELETE', `${p}/api/v1/namespaces/${name}`)
    }
    await sleep(500)
  }
  throw new Error(`namespace ${name} in ${where} is still terminating after 60 s`)
}

/** Seeded objects an accepted request grew past this are recreated (big lists slow every check). */
const SHRINK_BYTES = 32 * 1024

async function ensureObject(t: Target, o: Seeded): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const got = await adminJson(t, 'GET', o.path)
    const obj = got.json as KubeObject | undefined
    if (
      got.status === 200 &&
      obj?.kind === o.kind &&
      !obj.metadata?.deletionTimestamp &&
      got.text.length < SHRINK_BYTES
    )
      return
    if (got.status === 200) {
      await adminJson(t, 'DELETE', o.path)
    } else {
      const made = await adminJson(t, 'POST', o.collection, o.body)
      if (made.status === 201) return
    }
    await sleep(250)
  }
  throw new Error(`could not restore ${o.path}`)
}

/** Recreates whatever of the protected fixture is missing, terminating, disfigured or bloated. */
export async function restore(t: Target, fx: Fixture): Promise<void> {
  for (const where of ['root', 'space'] as Where[]) {
    await ensureNamespace(t, fx, where, fx.namespace)
    await ensureNamespace(t, fx, where, VICTIM_NAMESPACE)
    for (const o of seededObjects(fx, where)) await ensureObject(t, o)
  }
}

async function syncTarget(t: Target, fx: Fixture, name: string): Promise<string> {
  const path = `/clusters/root:${fx.inventory}/apis/edge.kcp.io/v1alpha1/synctargets`
  await must(t, {
    method: 'POST',
    path,
    body: { apiVersion: 'edge.kcp.io/v1alpha1', kind: 'SyncTarget', metadata: { name } },
    ok: [201, 409],
  })
  const st = await must(t, { method: 'GET', path: `${path}/${name}`, ok: [200] })
  const mailbox = mailboxOf(st.json as KubeObject)
  if (!mailbox) throw new Error(`SyncTarget ${name} has no mailbox name: ${st.text.slice(0, 200)}`)
  await must(t, { method: 'POST', path: '/hooks/mailbox', body: { keys: [mailbox] }, ok: [200] })
  return mailbox
}

async function edgeToken(t: Target, fx: Fixture, name: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await adminJson(t, 'POST', '/edge/v1/bootstrap', {
      inventory: `root:${fx.inventory}`,
      syncTarget: name,
      // a seed run again (a hub fuzzed twice) replaces the credential of its earlier run
      rotate: true,
    })
    if (res.status === 200) return (res.json as { token: string }).token
    if (res.status !== 503 && res.status !== 409)
      throw new Error(`bootstrap of ${name}: ${res.status} ${res.text.slice(0, 200)}`)
    await sleep(250)
  }
  throw new Error(`bootstrap of ${name} never became ready`)
}

/** Seeds everything; returns the fixture with its mailbox names and the two edge tokens. */
export async function seed(
  t: Target,
  base: Fixture
): Promise<{ fixture: Fixture; edge: string; otherEdge: string }> {
  await must(t, {
    method: 'POST',
    path: '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces',
    body: workspace(base.space),
    ok: [201, 409],
  })
  await must(t, {
    method: 'POST',
    path: '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces',
    body: workspace(base.inventory),
    ok: [201, 409],
  })
  await must(t, {
    method: 'GET',
    path: `/clusters/${spacePath(base)}/api/v1/namespaces`,
    ok: [200],
  })
  await restore(t, base)
  const mailbox = await syncTarget(t, base, base.syncTarget)
  const otherMailbox = await syncTarget(t, base, `${base.syncTarget}-2`)
  const ws = await must(t, {
    method: 'GET',
    path: `/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces/${base.space}`,
    ok: [200],
  })
  const spaceId = (ws.json as { spec?: { cluster?: string } }).spec?.cluster
  const fixture = { ...base, mailbox, otherMailbox, ...(spaceId ? { spaceId } : {}) }
  return {
    fixture,
    edge: await edgeToken(t, fixture, base.syncTarget),
    otherEdge: await edgeToken(t, fixture, `${base.syncTarget}-2`),
  }
}
