/**
 * The small surprises a kube user meets at the center, through real kubectl against `npm start`
 * with two simulated edges (florin and guilder, env=prod): a mistyped space is one clear error
 * line; the kubeconfig has a context for the edges' inventory space root:imw-1; the cross-space
 * view prints which workspace each row is in; the hub's Deployment and Service read as kube's do
 * in `kubectl describe` (kube's defaults filled in), while the copies leave those defaults to the
 * edges, so a Customizer's port gets its own targetPort there; and `kubectl logs deploy/shop`
 * says at once where the logs are instead of waiting for pods that never come to the center.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { parsePrinted, printedColumns, printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const WS = 'surprises'
let stack: E2eStack
let server = ''

const SHOP = `apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers:
      - {name: web, image: "nginx:1.27", ports: [{containerPort: 80}]}
---
apiVersion: v1
kind: Service
metadata:
  name: shop
  namespace: shop
  annotations: {edge.kcp.io/customizer: wide-port}
spec:
  selector: {app: shop}
  ports: [{port: 80}]
---
apiVersion: edge.kcp.io/v1alpha1
kind: Customizer
metadata: {name: wide-port, namespace: shop}
replacements:
- {path: "$.spec.ports[0].port", value: "8080"}
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: shop}
spec:
  locationSelectors: [{matchLabels: {env: prod}}]
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: shop}}
`

/** kubectl in root:surprises. */
const inShop = (args: string[], timeoutMs?: number) =>
  stack.kubectl(['--server', server, ...args], timeoutMs ? { timeoutMs } : {})

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod' })
  server = `${stack.url}/clusters/root:${WS}`
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace(WS) }))
  await eventually(async () => {
    ok(await stack.kubectl(['--server', server, 'apply', '-f', '-'], { input: SHOP }))
  })
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

describe('spaces', () => {
  it('a mistyped space is one line naming it, not discovery errors', async () => {
    const res = await stack.kubectl(['--server', `${stack.url}/clusters/root:imw1`, 'get', 'ns'])
    expect(res.code).toBe(1)
    // kubectl's own wording of a failed list, then the space's 404: one line, nothing before it
    expect(res.stderr).toBe(
      'Error from server (NotFound): Unable to list "/v1, Resource=namespaces": workspaces.tenancy.kcp.io "root:imw1" not found\n'
    )
  })

  it('the kubeconfig has a context for the inventory space root:imw-1', async () => {
    const out = ok(await stack.kubectl(['get', 'synctargets'], { context: 'root:imw-1' }))
    expect(parsePrinted(out).map((r) => r.NAME)).toEqual(['florin', 'guilder'])
  })

  it('the cross-space view prints the workspace of each row', async () => {
    const all = `${stack.url}/clusters/*`
    const deployments = ok(await stack.kubectl(['--server', all, 'get', 'deployments', '-A']))
    expect(printedColumns(deployments, 'NAMESPACE').slice(0, 3)).toEqual([
      'NAMESPACE',
      'WORKSPACE',
      'NAME',
    ])
    expect(printedRow(deployments, 'shop', 'NAMESPACE').WORKSPACE).toBe(`root:${WS}`)
    const namespaces = parsePrinted(
      ok(await stack.kubectl(['--server', all, 'get', 'ns'])),
      'WORKSPACE'
    )
    const defaults = namespaces.filter((r) => r.NAME === 'default').map((r) => r.WORKSPACE)
    for (const space of ['root', 'root:espw', 'root:imw-1', `root:${WS}`])
      expect(defaults).toContain(space)
  })
})

describe("kube's defaults", () => {
  it('kubectl describe at the center shows the strategy and the port protocols', async () => {
    const deployment = ok(await inShop(['-n', 'shop', 'describe', 'deployment', 'shop']))
    expect(deployment).toMatch(/^StrategyType:\s+RollingUpdate$/m)
    expect(deployment).toMatch(/^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m)
    expect(deployment).toMatch(/^\s+Port:\s+80\/TCP$/m)
    const service = ok(await inShop(['-n', 'shop', 'describe', 'service', 'shop']))
    expect(service).toMatch(/^TargetPort:\s+80\/TCP$/m)
  })

  it('are left to the edges: a customized port gets its own targetPort there', async () => {
    for (const edge of ['florin', 'guilder'])
      await eventually(async () => {
        const svc = okJson<any>(
          await stack.kubectl(['-n', 'shop', 'get', 'service', 'shop', '-o', 'json'], {
            context: edge,
          })
        )
        expect(svc.spec.ports).toEqual([{ port: 8080, targetPort: 8080, protocol: 'TCP' }])
        const deploy = okJson<any>(
          await stack.kubectl(['-n', 'shop', 'get', 'deployment', 'shop', '-o', 'json'], {
            context: edge,
          })
        )
        expect(deploy.spec.strategy.type).toBe('RollingUpdate')
      })
  })
})

describe('kubectl logs at the center', () => {
  const WHERE =
    'Deployment shop runs at the edges florin, guilder: kubectl --context florin -n shop logs deployment/shop'

  it('says where the logs are instead of waiting for pods', async () => {
    await eventually(async () => {
      const res = await inShop(['-n', 'shop', 'logs', 'deploy/shop'], 60_000)
      expect(res.code).toBe(1)
      expect(res.stderr).toContain(`Error from server (BadRequest): the pods of deployment shop`)
      expect(res.stderr).toContain(WHERE)
    }, 90_000)
    // the context it names is there, and has the Deployment
    const atEdge = await stack.kubectl(['-n', 'shop', 'get', 'deployment', 'shop'], {
      context: 'florin',
    })
    expect(printedRow(ok(atEdge), 'shop').NAME).toBe('shop')
    const follow = await inShop(['-n', 'shop', 'logs', '-f', 'deployment/shop', '-c', 'web'])
    expect(follow.stderr).toContain(WHERE)
  })
})
