/**
 * The untimed part of the propagation run through `npm start` (npm-start-edges.ts), written as a
 * user and a real edge would: N SyncTargets and Locations (labelled `env=bench-edge-N`,
 * edge-objects.ts) in an inventory space through the API, 16 at a time; then each edge's
 * credential from the bootstrap endpoint (`POST /edge/v1/bootstrap`, infra/edge-bootstrap/call.ts,
 * retried while its mailbox is not made yet), as `npm start`'s own edges and the bootstrap CLI get
 * theirs — the answer's mailbox and token are what the agent's Secret would carry; last, a
 * workload space with the namespace `edge`, the ConfigMap `prop` carrying marker `initial`, and
 * the EdgePlacement selecting those N Locations.
 */
import { requestBootstrap } from '../infra/edge-bootstrap/call.ts'
import { nodeTransport } from '../lib/remote/node-transport.ts'
import type { FleetMember } from './edge-agents.ts'
import {
  EDGE_NAMESPACE,
  edgeEnv,
  edgeInventory,
  edgeNamespace,
  edgePlacement,
  edgeWorkload,
  propConfigMap,
} from './edge-objects.ts'
import {
  configMapsPath,
  edgePath,
  location,
  namespacesPath,
  syncTarget,
  targetName,
  workspace,
  workspacesPath,
} from './fan-out-objects.ts'
import { runLoad } from './load.ts'
import type { NpmStartStack } from './npm-start-stack.ts'

/** The marker the ConfigMap `prop` is placed with, before any timed change. */
export const INITIAL_MARKER = 'initial'
/** How long a bootstrap waits for its mailbox to be made. */
const BOOTSTRAP_WAIT_SECONDS = 180

export type NpmStartEdgesSetup = {
  members: FleetMember[]
  /** The workload space's path (`root:<name>`). */
  space: string
  /** Wall time of each untimed step, ms. */
  setupMs: { register: number; bootstrap: number; place: number }
}

export async function setUpNpmStartEdges(
  stack: Pick<NpmStartStack, 'hub' | 'info' | 'token'>,
  o: { agents: number; itemBytes: number; ca: string },
  progress: (message: string) => void
): Promise<NpmStartEdgesSetup> {
  const { hub } = stack
  const n = o.agents
  const inv = `root:${edgeInventory(n)}`
  const space = `root:${edgeWorkload(n)}`
  const names = Array.from({ length: n }, (_, i) => targetName(i, n))

  progress(`npm start edges: registering ${n} SyncTargets and Locations (not timed)`)
  let t0 = performance.now()
  await hub.call(workspacesPath('root'), { method: 'POST', body: workspace(edgeInventory(n)) })
  await runLoad({ count: n, concurrency: 16 }, async (i) => {
    const name = names[i] ?? ''
    await hub.call(edgePath(inv, 'synctargets'), { method: 'POST', body: syncTarget(name) })
    await hub.call(edgePath(inv, 'locations'), {
      method: 'POST',
      body: location(name, edgeEnv(n)),
    })
  })
  const register = performance.now() - t0

  progress(`npm start edges: ${n} credentials from the bootstrap endpoint (not timed)`)
  t0 = performance.now()
  const send = nodeTransport({ ca: o.ca })
  const members: FleetMember[] = new Array(n)
  await runLoad({ count: n, concurrency: 8 }, async (i) => {
    const answer = await requestBootstrap(
      {
        hubUrl: stack.info.url,
        token: stack.token,
        request: {
          inventory: inv,
          syncTarget: names[i] ?? '',
          centerUrl: stack.info.url,
          caPem: o.ca,
        },
        waitSeconds: BOOTSTRAP_WAIT_SECONDS,
        retryMs: 500,
      },
      send
    )
    members[i] = { mailbox: answer.mailbox, token: answer.token }
  })
  const bootstrap = performance.now() - t0

  progress(`npm start edges: the workload placed to ${n} mailboxes (not timed)`)
  t0 = performance.now()
  await hub.call(workspacesPath('root'), { method: 'POST', body: workspace(edgeWorkload(n)) })
  await hub.call(namespacesPath(space), { method: 'POST', body: edgeNamespace() })
  await hub.call(configMapsPath(space, EDGE_NAMESPACE), {
    method: 'POST',
    body: propConfigMap(INITIAL_MARKER, o.itemBytes),
  })
  await hub.call(edgePath(space, 'edgeplacements'), { method: 'POST', body: edgePlacement(n) })
  const place = performance.now() - t0
  return { members, space, setupMs: { register, bootstrap, place } }
}
