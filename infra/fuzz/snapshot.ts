/**
 * What the fuzzer watches of the stored state: every Namespace, ConfigMap, Secret and Deployment
 * of root and the fuzz space (in any namespace), read through the admin-only cross-space view
 * `/clusters/*` and kept by their `kcp.io/cluster` annotation, plus root's workspaces; when the
 * cross-space view fails, the fixture's own collections space by space. A snapshot maps each
 * protected object (fixture.ts `key`; `victim-` objects and namespaces are left out) to its uid,
 * resourceVersion, kind and deletion mark; `diff` says what was created, deleted or modified.
 */
import { CLUSTER_ANNOTATION } from '../../lib/kube/types.ts'
import { key, spacePath } from './fixture.ts'
import { adminJson } from './hub-api.ts'
import type { Target } from './send.ts'
import type { Fixture } from './types.ts'

export type Entry = { uid: string; rv: string; kind: string; apiVersion: string; deleting: boolean }
export type Snapshot = Map<string, Entry>

type Watched = { path: string; resource: string; space?: string; namespace?: string }

const CROSS: Watched[] = [
  { path: '/clusters/*/api/v1/namespaces', resource: 'namespaces' },
  { path: '/clusters/*/api/v1/configmaps', resource: 'configmaps' },
  { path: '/clusters/*/api/v1/secrets', resource: 'secrets' },
  { path: '/clusters/*/apis/apps/v1/deployments', resource: 'deployments' },
  {
    path: '/clusters/root/apis/tenancy.kcp.io/v1alpha1/workspaces',
    resource: 'workspaces',
    space: 'root',
  },
]

function perSpace(fx: Fixture): Watched[] {
  const out: Watched[] = []
  for (const space of ['root', spacePath(fx)]) {
    const p = `/clusters/${space}`
    out.push({ space, path: `${p}/api/v1/namespaces`, resource: 'namespaces' })
    for (const ns of [fx.namespace, 'default'])
      out.push({ space, path: `${p}/api/v1/namespaces/${ns}/configmaps`, resource: 'configmaps' })
    out.push({ space, path: `${p}/api/v1/namespaces/${fx.namespace}/secrets`, resource: 'secrets' })
    out.push({
      space,
      path: `${p}/apis/apps/v1/namespaces/${fx.namespace}/deployments`,
      resource: 'deployments',
    })
  }
  out.push(CROSS[4] as Watched)
  return out
}

type Item = {
  kind?: string
  apiVersion?: string
  metadata?: {
    name?: string
    namespace?: string
    uid?: string
    resourceVersion?: string
    deletionTimestamp?: string
    annotations?: Record<string, string>
  }
}

async function read(t: Target, fx: Fixture, watched: Watched[]): Promise<Snapshot> {
  const spaces = new Map([
    ['root', 'root'],
    ...(fx.spaceId ? [[fx.spaceId, spacePath(fx)] as [string, string]] : []),
  ])
  const lists = await Promise.all(watched.map((w) => adminJson(t, 'GET', w.path)))
  const snap: Snapshot = new Map()
  lists.forEach((res, i) => {
    const w = watched[i] as Watched
    if (res.status !== 200)
      throw new Error(`snapshot: GET ${w.path} answered ${res.status}: ${res.text.slice(0, 200)}`)
    const body = res.json as { kind?: string; apiVersion?: string; items?: Item[] }
    const listKind = (body.kind ?? '').replace(/List$/, '')
    for (const item of body.items ?? []) {
      const m = item.metadata ?? {}
      const name = m.name ?? ''
      const namespace = m.namespace ?? ''
      if (name.startsWith('victim-') || namespace.startsWith('victim-')) continue
      const space = w.space ?? spaces.get(m.annotations?.[CLUSTER_ANNOTATION] ?? '')
      if (!space) continue
      snap.set(key(space, w.resource, namespace, name), {
        uid: m.uid ?? '',
        rv: m.resourceVersion ?? '',
        kind: item.kind ?? listKind,
        apiVersion: item.apiVersion ?? body.apiVersion ?? '',
        deleting: Boolean(m.deletionTimestamp),
      })
    }
  })
  return snap
}

/**
 * A snapshot taker for one hub: it uses the cross-space view when that answers at the first
 * snapshot, and sticks to that choice (mixing the two would show differences that are not).
 */
export function snapshotter(t: Target, fx: Fixture): () => Promise<Snapshot> {
  let cross: boolean | undefined
  return async () => {
    if (cross === undefined)
      cross =
        Boolean(fx.spaceId) &&
        (await read(t, fx, CROSS).then(
          () => true,
          () => false
        ))
    return read(t, fx, cross ? CROSS : perSpace(fx))
  }
}

export type Change = {
  key: string
  what: 'created' | 'deleted' | 'modified'
  before?: Entry
  after?: Entry
}

export function diff(before: Snapshot, after: Snapshot): Change[] {
  const out: Change[] = []
  for (const [k, b] of before) {
    const a = after.get(k)
    if (!a) out.push({ key: k, what: 'deleted', before: b })
    else if (
      a.rv !== b.rv ||
      a.uid !== b.uid ||
      a.kind !== b.kind ||
      a.apiVersion !== b.apiVersion ||
      a.deleting !== b.deleting
    )
      out.push({ key: k, what: 'modified', before: b, after: a })
  }
  for (const [k, a] of after) if (!before.has(k)) out.push({ key: k, what: 'created', after: a })
  return out
}

export function describeChange(c: Change): string {
  if (c.what === 'modified' && c.before && c.after) {
    const parts = [`rv ${c.before.rv}→${c.after.rv}`]
    if (c.before.uid !== c.after.uid) parts.push(`uid ${c.before.uid}→${c.after.uid}`)
    if (c.before.kind !== c.after.kind) parts.push(`kind ${c.before.kind}→${c.after.kind}`)
    if (c.before.apiVersion !== c.after.apiVersion)
      parts.push(`apiVersion ${c.before.apiVersion}→${c.after.apiVersion}`)
    if (!c.before.deleting && c.after.deleting) parts.push('now deleting')
    return `${c.key} modified (${parts.join(', ')})`
  }
  return `${c.key} ${c.what}`
}
