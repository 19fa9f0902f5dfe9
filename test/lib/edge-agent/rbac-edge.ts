/**
 * An edge cluster that enforces RBAC, for the agent's tenant-identity tests: the hub in plain Node
 * in edge-cluster mode (RBAC with impersonation, as a simulated edge runs), bootstrapped as a fresh
 * cluster (kube's default ClusterRoles), with the bootstrap manifests' RBAC applied by its admin
 * (the agent's ServiceAccount, ClusterRole, Role and bindings, `edgeplane-tenants` and the agent's
 * right to impersonate there), and a token for the agent's ServiceAccount — so the agent talks to
 * it as it would in a pod, not as an admin.
 */
import { KubeConfig } from '@kubernetes/client-node'
import { startNodeHub } from '../../../functions/node-server.ts'
import { registerToken } from '../../../lib/auth/tokens.ts'
import { AGENT_NAME, renderEdgeManifests } from '../../../lib/edge/manifests.ts'
import { createKubeRest } from '../../../lib/edge-agent/kube-rest.ts'
import { bootstrapEdge, edgeNode } from '../../../lib/edge-sim/bootstrap.ts'
import { parseApiVersion } from '../../../lib/kube/resource-info.ts'
import { silentLogger } from '../../../lib/log.ts'
import { serviceAccountGroups, serviceAccountUser } from '../../../lib/rbac/service-accounts.ts'
import { createTestStore } from '../../helpers/dynalite.ts'
import { AGENT_NS, type Edge } from './fixture.ts'

const ADMIN = 'rbac-edge-admin'
const AGENT_TOKEN = 'rbac-edge-agent'

const PLURALS: Record<string, string> = {
  Namespace: 'namespaces',
  ServiceAccount: 'serviceaccounts',
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
}

const kubeConfigFor = (server: string, token: string) => {
  const kc = new KubeConfig()
  kc.loadFromClusterAndUser({ name: 'edge', server, skipTLSVerify: true }, { name: 'u', token })
  return kc
}

export async function startRbacEdge(): Promise<Edge> {
  const store = await createTestStore()
  const hub = await startNodeHub({
    objects: store.objects,
    kv: store.kv,
    log: silentLogger,
    defaults: true,
    site: 'simulated-edge',
    authorization: 'rbac',
  })
  await bootstrapEdge(hub.deps, { node: edgeNode('rbac'), adminToken: ADMIN, baseUrl: hub.url })
  const admin = createKubeRest({ kubeConfig: kubeConfigFor(hub.url, ADMIN) })
  const docs = renderEdgeManifests({
    mailbox: 'mb',
    syncTarget: 'rbac',
    token: 'unused',
    centerUrl: 'http://center.invalid',
  }).filter((d) => PLURALS[d.kind])
  for (const d of docs)
    await admin.apply(
      {
        ...parseApiVersion(d.apiVersion),
        resource: PLURALS[d.kind] ?? '',
        namespace: d.metadata.namespace ?? '',
        name: d.metadata.name ?? '',
      },
      d,
      { fieldManager: 'kubectl', force: true }
    )
  await registerToken(store.kv, AGENT_TOKEN, {
    name: serviceAccountUser(AGENT_NS, AGENT_NAME),
    kind: 'user',
    spaces: ['root'],
    groups: serviceAccountGroups(AGENT_NS),
  })
  const kubeConfig = kubeConfigFor(hub.url, AGENT_TOKEN)
  const kube = createKubeRest({ kubeConfig })
  return {
    hub,
    kube,
    kubeConfig,
    async call(method, path, body, opts = {}) {
      const sep = path.includes('?') ? '&' : '?'
      const res = await fetch(`${hub.url}${path}${sep}fieldManager=${opts.manager ?? 'someone'}`, {
        method,
        headers: {
          authorization: `Bearer ${ADMIN}`,
          'content-type': opts.contentType ?? 'application/json',
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await res.text()
      return { status: res.status, body: text ? JSON.parse(text) : undefined }
    },
    get: (ref) => admin.get(ref),
    async close() {
      await hub.close()
      await store.close()
    },
  }
}
