/**
 * Helpers for end-to-end tests of the simulated edges `npm start` runs (EDGEPLANE_EDGES): kubectl
 * arguments for a workload space and for an edge's mailbox space, a read of an object at an edge
 * or in a mailbox (undefined when absent), the edge's agent credentials from the data folder, and
 * a workload (a Namespace, a Deployment, a ConfigMap, a Service) with the EdgePlacement sending it
 * to the Locations labelled env=prod (or as told), upsyncing ConfigMaps named `report` from its namespace —
 * applied in a workload space, or placed in a new one — and a ConfigMap an edge made itself in
 * the way of a workload object of the same name.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { ok } from './kubectl.ts'
import { configMap, workspace } from './manifests.ts'
import type { StackClient } from './stack-client.ts'

export type EdgeStack = {
  /** kubectl arguments addressing space `root:<name>`. */
  at(space: string): string[]
  /** kubectl arguments addressing the mailbox space of edge `edge`. */
  mailbox(edge: string): Promise<string[]>
  /** `kubectl get -o json` of `kind/name` in namespace `ns`, or undefined on NotFound. */
  get(where: string[], kind: string, ns: string, name: string): Promise<KubeObject | undefined>
  /** The edge agent's token, as the bootstrap put it in the edge's Secret. */
  edgeToken(edge: string): Promise<string>
  /** Applies shopWorkload('shop', replicas, page) in space `root:<space>`. */
  applyShop(space: string, replicas: number, page: string): Promise<void>
  /** Creates Workspace `root:<space>` and applies the shop workload there (2 replicas, page v1). */
  placeShop(space: string): Promise<void>
  /**
   * ConfigMap `shop/<name>` made directly at edge `edge` (data owner=edge), then one of the same
   * name in the workload space `root:<space>` (owner=center): the edge's is in the agent's way.
   */
  foreignConfigMap(edge: string, space: string, name: string): Promise<void>
}

export function edgeStack(stack: StackClient): EdgeStack {
  const at = (space: string) => ['--server', `${stack.url}/clusters/root:${space}`]
  const applyShop = async (space: string, replicas: number, page: string) => {
    const input = shopWorkload('shop', replicas, page)
    ok(await stack.kubectl([...at(space), 'apply', '-f', '-'], { input }))
  }
  return {
    at,
    applyShop,
    async placeShop(space) {
      ok(await stack.kubectl(['create', '-f', '-'], { input: workspace(space) }))
      await applyShop(space, 2, 'v1')
    },
    async foreignConfigMap(edge, space, name) {
      const own = configMap('shop', name, { owner: 'edge' })
      ok(await stack.kubectl(['create', '-f', '-'], { context: edge, input: own }))
      const theirs = configMap('shop', name, { owner: 'center' })
      ok(await stack.kubectl([...at(space), 'create', '-f', '-'], { input: theirs }))
    },
    async mailbox(edge) {
      const info = await stack.readInfo()
      const e = info.edges.find((x) => x.name === edge)
      if (!e) throw new Error(`no edge ${edge} in stack.json`)
      return ['--server', `${stack.url}/clusters/root:espw:${e.mailbox}`]
    },
    async get(where, kind, ns, name) {
      const r = await stack.kubectl([...where, 'get', kind, name, '-n', ns, '-o', 'json'])
      if (r.code !== 0 && /NotFound|not found/.test(r.stderr)) return undefined
      return JSON.parse(ok(r)) as KubeObject
    },
    async edgeToken(edge) {
      const info = await stack.readInfo()
      const e = info.edges.find((x) => x.name === edge)
      if (!e) throw new Error(`no edge ${edge} in stack.json`)
      return (await readFile(join(e.dir, 'credentials', 'token'), 'utf8')).trim()
    },
  }
}

/** The shop workload in namespace `ns`, placed on the Locations labelled `at` (env=prod). */
export function shopWorkload(
  ns: string,
  replicas: number,
  page: string,
  at: Record<string, string> = { env: 'prod' }
): string {
  const labels = Object.entries(at)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
  return `apiVersion: v1
kind: Namespace
metadata: {name: ${ns}, labels: {app: ${ns}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.27"}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: page, namespace: ${ns}}
data: {index.html: "${page}"}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: ${ns}}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: ${ns}}
spec:
  locationSelectors: [{matchLabels: {${labels}}}]
  namespaceSelector: {matchLabels: {app: ${ns}}}
  upsync:
  - apiGroup: ""
    resources: [configmaps]
    namespaces: [${ns}]
    names: [report]
`
}
