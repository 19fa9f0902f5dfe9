/**
 * Starts one simulated edge cluster in this process: its own DynamoDB table on the given endpoint
 * (dynalite locally; created when missing), the hub app over it with kube's API-server defaults,
 * authorizing every request by RBAC with impersonation as kube-apiserver does (lib/rbac/),
 * served over HTTPS when a certificate is given (kubectl sends bearer tokens only over TLS), the
 * edge bootstrap (built-in namespaces, the `kubernetes` Service, the node, the admin token) and the
 * workload simulator. The API is a plain cluster at the URL's root (`/api`, `/apis`), so a
 * kubeconfig names it like any other cluster. `close()` stops the simulator, waits for background
 * work, closes the server (open watches included) and the DynamoDB client.
 */

import type { Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createNodeApp } from '../../functions/node-server.ts'
import { guardBuiltServer } from '../../functions/raw-request-guard.ts'
import { bootstrapEdge, edgeNode } from '../../lib/edge-sim/bootstrap.ts'
import { type Fault, faultsText } from '../../lib/edge-sim/faults.ts'
import { createSimulator, type Simulator } from '../../lib/edge-sim/simulator.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { isDnsLabel } from '../../lib/kube/names.ts'
import type { Logger } from '../../lib/log.ts'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore } from '../../lib/store/dynamo-store.ts'
import { ensureTable } from '../../lib/store/ensure-table.ts'
import { TABLE } from '../../lib/store/table.ts'

export type SimulatedEdgeOptions = {
  /** The edge's name (a DNS label): the node is `<name>-node`, the table `edge-<name>` by default. */
  name: string
  ddbEndpoint: string
  /** The store's AWS credentials (npm start's store key); absent: dummy ones, as dynalite takes. */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  tableName?: string
  region?: string
  /** PEM certificate and key; without them the API is plain http. */
  tls: { cert: string; key: string } | undefined
  /** 0 or absent: a free port. */
  port?: number
  host?: string
  adminToken: string
  log: Logger
  /** Simulator timing (tests): pass period, resync period, how long a Job's pod runs. */
  simulator?: { periodMs?: number; resyncMs?: number; jobDurationMs?: number }
  /** The failures the edge is told to have (lib/edge-sim/faults.ts); none by default. */
  faults?: readonly Fault[]
}

export type SimulatedEdge = {
  /** `https://127.0.0.1:<port>` (http without tls): the cluster's API server URL. */
  url: string
  name: string
  adminToken: string
  tableName: string
  port: number
  deps: HubDeps
  simulator: Simulator
  /** Waits for background work (garbage collection) started so far. */
  settle(): Promise<void>
  close(): Promise<void>
}

export const defaultEdgeTable = (name: string) => `edge-${name}`

export async function startSimulatedEdge(opts: SimulatedEdgeOptions): Promise<SimulatedEdge> {
  if (!isDnsLabel(opts.name))
    throw new Error(`edge name must be a DNS label (lowercase letters, digits, '-'): ${opts.name}`)
  const log = opts.log.child({ edge: opts.name })
  const tableName = opts.tableName ?? defaultEdgeTable(opts.name)
  const client = createDynamoClient({
    region: opts.region ?? 'us-east-1',
    endpoint: opts.ddbEndpoint,
    credentials: opts.credentials ?? { accessKeyId: 'local', secretAccessKey: 'local' },
  })
  let server: ReturnType<typeof serve> | undefined
  let simulator: Simulator | undefined
  try {
    await ensureTable(client, TABLE, { tableName })
    const store = createDynamoStore({ client, tableName })
    const { app, deps, settle } = createNodeApp({
      objects: store.objects,
      kv: store.kv,
      log,
      defaults: true,
      site: 'simulated-edge',
      authorization: 'rbac',
    })
    // Bootstrapped before it listens, so the first answer (even /healthz) means ready, token included.
    const node = edgeNode(opts.name)
    await bootstrapEdge(deps, { node, adminToken: opts.adminToken })
    const host = opts.host ?? '127.0.0.1'
    const tls = opts.tls
    server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const base = { fetch: app.fetch, port: opts.port ?? 0, hostname: host }
      const s = tls
        ? serve(
            {
              ...base,
              createServer: createHttpsServer,
              serverOptions: { cert: tls.cert, key: tls.key },
            },
            () => resolve(s)
          )
        : serve(base, () => resolve(s))
    })
    guardBuiltServer(server as Server)
    const port = (server.address() as AddressInfo).port
    const url = `${tls ? 'https' : 'http'}://${host}:${port}`
    const faults = opts.faults ?? []
    const sim = createSimulator({ deps, node, log, faults, ...(opts.simulator ?? {}) })
    simulator = sim
    sim.start()
    log.info('simulated edge ready', {
      url,
      table: tableName,
      node: node.name,
      ...(faults.length ? { faults: faultsText(faults) } : {}),
    })
    const running = server
    let closing: Promise<void> | undefined
    const close = async () => {
      await sim.stop()
      await settle()
      await new Promise<void>((resolve) => {
        running.close(() => resolve())
        ;(running as { closeAllConnections?: () => void }).closeAllConnections?.()
      })
      client.destroy()
    }
    return {
      url,
      name: opts.name,
      adminToken: opts.adminToken,
      tableName,
      port,
      deps,
      simulator: sim,
      settle,
      close: () => {
        closing ??= close()
        return closing
      },
    }
  } catch (e) {
    await simulator?.stop()
    server?.close()
    client.destroy()
    throw e
  }
}
