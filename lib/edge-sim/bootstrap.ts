/**
 * Brings a simulated edge cluster's store to the state a fresh kube cluster starts in,
 * idempotently: the built-in namespaces (default, kube-system, kube-public, kube-node-lease), the
 * `kubernetes` Service in `default` at 10.96.0.1, the cluster's one Node (`<edge>-node`, Ready,
 * with its address and the usual kubernetes.io labels), kube's default ClusterRoles and their
 * bindings (default-rbac.ts: cluster-admin for `system:masters`, discovery and the self reviews for
 * every authenticated user), and the admin token. Unlike the hub's
 * bootstrap there is no `root:espw`: an edge cluster is one plain cluster (the `root` space).
 */
import { DEFAULT_BUILTIN_NAMESPACES } from '../apis/builtins.ts'
import { ensureBootstrapAdmin } from '../auth/bootstrap-admin.ts'
import { isApiError } from '../errors.ts'
import { createHubClient, type Gvr, type HubClient } from '../hub/client.ts'
import type { HubDeps } from '../hub/deps.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { KUBERNETES_SERVICE_IP } from './allocator.ts'
import { defaultClusterRoleBindings, defaultClusterRoles } from './default-rbac.ts'
import { fnv32a } from './hash.ts'
import type { NodeInfo } from './sim-context.ts'

const NAMESPACES: Gvr = { group: '', version: 'v1', resource: 'namespaces' }
const SERVICES: Gvr = { group: '', version: 'v1', resource: 'services' }
const NODES: Gvr = { group: '', version: 'v1', resource: 'nodes' }
const rbacGvr = (resource: string): Gvr => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  resource,
})

/** The node of edge `name`: `<name>-node` at a stable 172.18.0.x address. */
export function edgeNode(name: string): NodeInfo {
  const nodeName = `${name}-node`
  return {
    name: nodeName,
    ip: `172.18.0.${2 + (fnv32a(name) % 250)}`,
    labels: {
      'kubernetes.io/hostname': nodeName,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'node-role.kubernetes.io/control-plane': '',
    },
  }
}

async function ensure(
  client: HubClient,
  gvr: Gvr,
  obj: KubeObject
): Promise<KubeObject | undefined> {
  try {
    return await client.create('root', gvr, obj)
  } catch (e) {
    if (isApiError(e) && e.reason === 'AlreadyExists') return undefined
    throw e
  }
}

function nodeStatus(node: NodeInfo, now: string) {
  const capacity = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' }
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  })
  return {
    capacity,
    allocatable: capacity,
    conditions: [
      condition(
        'MemoryPressure',
        'False',
        'KubeletHasSufficientMemory',
        'kubelet has sufficient memory available'
      ),
      condition(
        'DiskPressure',
        'False',
        'KubeletHasNoDiskPressure',
        'kubelet has no disk pressure'
      ),
      condition(
        'PIDPressure',
        'False',
        'KubeletHasSufficientPID',
        'kubelet has sufficient PID available'
      ),
      condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [
      { type: 'InternalIP', address: node.ip },
      { type: 'Hostname', address: node.name },
    ],
    nodeInfo: {
      kubeletVersion: 'v1.31.0',
      kubeProxyVersion: 'v1.31.0',
      containerRuntimeVersion: 'containerd://1.7.18',
      operatingSystem: 'linux',
      architecture: 'amd64',
      osImage: 'edgeplane simulated node',
      kernelVersion: '6.1.0',
      machineID: '',
      systemUUID: '',
      bootID: '',
    },
  }
}

export async function bootstrapEdge(
  deps: HubDeps,
  opts: { node: NodeInfo; adminToken?: string; baseUrl?: string }
): Promise<void> {
  const client = createHubClient(deps, {
    fieldManager: 'kube-apiserver',
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
  })
  for (const name of DEFAULT_BUILTIN_NAMESPACES)
    await ensure(client, NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
  await ensure(client, SERVICES, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      clusterIP: KUBERNETES_SERVICE_IP,
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    },
  })
  const node = await ensure(client, NODES, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: opts.node.name, labels: opts.node.labels },
    spec: {},
  })
  if (node)
    await client.updateStatus('root', NODES, {
      ...node,
      status: nodeStatus(opts.node, timestamp(deps.now())),
    })
  for (const obj of defaultClusterRoles()) await ensure(client, rbacGvr('clusterroles'), obj)
  for (const obj of defaultClusterRoleBindings())
    await ensure(client, rbacGvr('clusterrolebindings'), obj)
  // A changed admin token revokes the previous one; a retired one is refused.
  if (opts.adminToken && (await ensureBootstrapAdmin(deps.kv, opts.adminToken)) === 'retired')
    throw new Error('the admin token of this simulated edge was retired: configure a fresh one')
}
