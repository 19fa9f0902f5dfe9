/**
 * The control-plane scenario of the end-to-end tests, modelled on KubeStellar's example1: an
 * inventory space `imw-1` with SyncTargets and Locations florin (env=prod), guilder (env=prod,
 * extended=si) and zloty (env=dev); a workload space `wmw-c` whose EdgePlacement sends namespace
 * `commonstuff` to env=prod, and `wmw-s` whose EdgePlacement sends `specialstuff` to extended=si.
 * Everything is written with kubectl; the helpers read mailboxes back with kubectl too.
 */
import { expect } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { ok, okJson } from './kubectl.ts'
import { workspace } from './manifests.ts'
import type { E2eStack } from './stack.ts'

export type World = {
  /** kubectl arguments that address a space `root:<name>`. */
  at(name: string): string[]
  /**
   * The live projected copies in a SyncTarget's mailbox as `resource/namespace/name`, sorted;
   * tombstones (terminating until their edge confirms the removal) are left out.
   */
  content(syncTarget: string): Promise<string[]>
  syncerConfig(syncTarget: string): Promise<any>
  copy(
    syncTarget: string,
    namespace: string,
    name: string
  ): Promise<KubeObject & { data?: unknown }>
}

const LOCATIONS: [string, Record<string, string>][] = [
  ['florin', { env: 'prod' }],
  ['guilder', { env: 'prod', extended: 'si' }],
  ['zloty', { env: 'dev' }],
]

const labels = (l: Record<string, string>, indent: string) =>
  Object.entries(l)
    .map(([k, v]) => `${indent}${k}: "${v}"`)
    .join('\n')

function inventory(): string {
  return LOCATIONS.map(
    ([name, l]) => `apiVersion: edge.kcp.io/v1alpha1
kind: SyncTarget
metadata:
  name: ${name}
  labels:
    id: ${name}
---
apiVersion: edge.kcp.io/v1alpha1
kind: Location
metadata:
  name: ${name}
  labels:
${labels(l, '    ')}
spec:
  resource: {group: edge.kcp.io, version: v1alpha1, resource: synctargets}
  instanceSelector:
    matchLabels: {id: ${name}}
`
  ).join('---\n')
}

/**
 * A workload space's objects: namespace `ns` (labelled `label`) with ConfigMap `cm`, and the
 * EdgePlacement `ep` selecting locations by the label pair `where`.
 */
type Workload = { ns: string; label: string; cm: string; ep: string; where: string }

function workload(w: Workload): string {
  const { ns, label, cm, ep, where } = w
  return `apiVersion: v1
kind: Namespace
metadata:
  name: ${ns}
  labels: {${label}: si}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ${cm}, namespace: ${ns}}
data:
  index.html: "<h1>${ns}</h1>"
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: ${ep}}
spec:
  locationSelectors:
  - matchLabels: {${where}}
  namespaceSelector:
    matchLabels: {${label}: si}
  upsync:
  - apiGroup: group1.test
    resources: [sprockets]
    namespaces: [orbital]
    names: [george]
`
}

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: commond, namespace: commonstuff}
spec:
  selector: {matchLabels: {app: common}}
  template:
    metadata: {labels: {app: common}}
    spec:
      containers:
      - name: httpd
        image: library/httpd:2.4
`

const RESOURCE_OF: Record<string, string> = {
  ConfigMap: 'configmaps',
  Deployment: 'deployments',
  Namespace: 'namespaces',
}

/** Retries `check` until it passes or `timeoutMs` runs out (then its last failure is thrown). */
export async function eventually(check: () => Promise<void>, timeoutMs = 45_000): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      await check()
      return
    } catch (e) {
      if (Date.now() > until) throw e
      await new Promise((r) => setTimeout(r, 500))
    }
  }
}

export async function setupWorld(stack: E2eStack): Promise<World> {
  const at = (name: string) => ['--server', `${stack.url}/clusters/root:${name}`]
  for (const ws of ['imw-1', 'wmw-c', 'wmw-s'])
    ok(await stack.kubectl(['apply', '-f', '-'], { input: workspace(ws) }))
  ok(await stack.kubectl([...at('imw-1'), 'apply', '-f', '-'], { input: inventory() }))
  const c = workload({
    ns: 'commonstuff',
    label: 'common',
    cm: 'httpd-htdocs',
    ep: 'edge-placement-c',
    where: 'env: prod',
  })
  ok(await stack.kubectl([...at('wmw-c'), 'apply', '-f', '-'], { input: `${c}---\n${DEPLOYMENT}` }))
  const s = workload({
    ns: 'specialstuff',
    label: 'special',
    cm: 'special-htdocs',
    ep: 'edge-placement-s',
    where: 'extended: si',
  })
  ok(await stack.kubectl([...at('wmw-s'), 'apply', '-f', '-'], { input: s }))
  const imw = okJson<{ spec: { cluster: string } }>(
    await stack.kubectl(['get', 'workspace', 'imw-1', '-o', 'json'])
  )
  const mailbox = async (st: string) => {
    const obj = okJson<KubeObject>(
      await stack.kubectl([...at('imw-1'), 'get', 'synctarget', st, '-o', 'json'])
    )
    return [
      '--server',
      `${stack.url}/clusters/root:espw:${imw.spec.cluster}-mb-${obj.metadata.uid}`,
    ]
  }
  return {
    at,
    async content(st) {
      const r = await stack.kubectl([
        ...(await mailbox(st)),
        'get',
        'configmaps,deployments,namespaces',
        '-A',
        '-l',
        'edge.kcp.io/projected=yes',
        '-o',
        'json',
      ])
      const items = okJson<{ items: KubeObject[] }>(r).items
      return items
        .filter((o) => !o.metadata.deletionTimestamp)
        .map(
          (o) => `${RESOURCE_OF[o.kind] ?? o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
        )
        .sort()
    },
    async syncerConfig(st) {
      const r = await stack.kubectl([
        ...(await mailbox(st)),
        'get',
        'syncerconfig',
        'the-one',
        '-o',
        'json',
      ])
      return okJson(r)
    },
    async copy(st, ns, name) {
      const r = await stack.kubectl([
        ...(await mailbox(st)),
        'get',
        'configmap',
        name,
        '-n',
        ns,
        '-o',
        'json',
      ])
      const obj = okJson<KubeObject & { data?: unknown }>(r)
      expect(obj.metadata.labels?.['edge.kcp.io/projected']).toBe('yes')
      return obj
    },
  }
}
