/**
 * The manifests an edge cluster applies to run its agent (the outline's "Edge cluster" list, in
 * the shape `kubectl kubestellar prep-for-syncer` emits): a Namespace; a ServiceAccount the agent
 * runs as (it reaches its own cluster with in-cluster config, so no kubeconfig Secret and no
 * long-lived ServiceAccount token Secret are needed); a ClusterRole + ClusterRoleBinding and a
 * Role + RoleBinding (manifests-rbac.ts); the namespace of the tenant identities with the agent's
 * right to impersonate them (manifests-tenants.ts); a Secret holding the center URL, the mailbox name, the edge
 * token (and the center's CA when it has a private one); and the agent Deployment, whose container
 * (image: manifests-image.ts, unless given) serves /healthz, /readyz and /metrics on its health
 * port, used as its liveness and readiness probes. Pure: the same options give the same
 * documents, and the token appears in the Secret only.
 */
import { stringify } from 'yaml'
import type { KubeObject } from '../kube/types.ts'
import { EDGE_AGENT_IMAGE, HEALTH_PORT } from './manifests-image.ts'
import { agentRbac } from './manifests-rbac.ts'
import { tenantManifests } from './manifests-tenants.ts'

export const DEFAULT_AGENT_IMAGE = EDGE_AGENT_IMAGE
export const DEFAULT_AGENT_NAMESPACE = 'edgeplane-system'
export const DEFAULT_POLL_INTERVAL_SECONDS = 15
/** Name of the ServiceAccount, Secret, Deployment and RBAC objects. */
export const AGENT_NAME = 'edgeplane-agent'
/** Where the Secret is mounted in the agent's container. */
export const AGENT_SECRET_DIR = '/var/run/edgeplane'
/** The agent's state folder (last desired state, what it owns). */
export const AGENT_STATE_DIR = '/var/lib/edgeplane-agent'
/** The uid and gid the agent runs as (the `node` user of its image, infra/edge-agent/Dockerfile). */
export const AGENT_UID = 1000

export type EdgeManifestOptions = {
  /** The mailbox name (`<inventory-space-id>-mb-<synctarget-uid>`). */
  mailbox: string
  /** The SyncTarget's name, for labels. */
  syncTarget: string
  /** The edge token: goes into the Secret, nowhere else. */
  token: string
  /** The center's base URL as the edge reaches it. */
  centerUrl: string
  /** PEM of a private CA the center's certificate chains to (the agent's EDGEPLANE_CENTER_CA). */
  caPem?: string
  image?: string
  namespace?: string
  pollIntervalSeconds?: number
}

/** Base64 of the UTF-8 bytes (no Buffer: this also runs in the Worker). */
function b64(text: string): string {
  let bin = ''
  for (const byte of new TextEncoder().encode(text)) bin += String.fromCharCode(byte)
  return btoa(bin)
}

function labels(syncTarget: string): Record<string, string> {
  const out: Record<string, string> = {
    'app.kubernetes.io/name': AGENT_NAME,
    'app.kubernetes.io/part-of': 'edgeplane',
  }
  // A label value stops at 63 characters; a SyncTarget name may be longer.
  if (syncTarget.length <= 63) out['edge.kcp.io/sync-target'] = syncTarget
  return out
}

function secret(o: EdgeManifestOptions, namespace: string): KubeObject {
  const data: Record<string, string> = {
    center: b64(o.centerUrl),
    mailbox: b64(o.mailbox),
    token: b64(o.token),
  }
  if (o.caPem) data['ca.crt'] = b64(o.caPem)
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: AGENT_NAME, namespace, labels: labels(o.syncTarget) },
    type: 'Opaque',
    data,
  } as KubeObject
}

const fromSecret = (name: string, key: string) => ({
  name,
  valueFrom: { secretKeyRef: { name: AGENT_NAME, key } },
})

function deployment(o: EdgeManifestOptions, namespace: string): KubeObject {
  const poll = o.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS
  const selector = { 'app.kubernetes.io/name': AGENT_NAME }
  const env: Record<string, unknown>[] = [
    fromSecret('EDGEPLANE_CENTER', 'center'),
    fromSecret('EDGEPLANE_MAILBOX', 'mailbox'),
    { name: 'EDGEPLANE_TOKEN_FILE', value: `${AGENT_SECRET_DIR}/token` },
    { name: 'EDGEPLANE_STATE', value: AGENT_STATE_DIR },
  ]
  if (o.caPem) env.push({ name: 'EDGEPLANE_CENTER_CA', value: `${AGENT_SECRET_DIR}/ca.crt` })
  const container = {
    name: 'agent',
    image: o.image ?? DEFAULT_AGENT_IMAGE,
    args: [
      '--center=$(EDGEPLANE_CENTER)',
      '--mailbox=$(EDGEPLANE_MAILBOX)',
      `--token-file=${AGENT_SECRET_DIR}/token`,
      `--poll-interval=${poll}`,
      '--state-dir=$(EDGEPLANE_STATE)',
      `--health-port=${HEALTH_PORT}`,
    ],
    ports: [{ name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' }],
    // Liveness: the poll loop moves (a hung poll restarts the container); readiness: the last
    // poll reached the center and applied (0/1 READY for an edge cut off from its center).
    livenessProbe: {
      httpGet: { path: '/healthz', port: 'health' },
      initialDelaySeconds: 10,
      periodSeconds: 20,
      timeoutSeconds: 5,
      failureThreshold: 3,
    },
    readinessProbe: {
      httpGet: { path: '/readyz', port: 'health' },
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3,
    },
    env,
    volumeMounts: [
      { name: 'credentials', mountPath: AGENT_SECRET_DIR, readOnly: true },
      { name: 'state', mountPath: AGENT_STATE_DIR },
    ],
    resources: {
      requests: { cpu: '50m', memory: '96Mi' },
      limits: { memory: '384Mi' },
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    },
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: AGENT_NAME,
      namespace,
      labels: labels(o.syncTarget),
      annotations: { 'edge.kcp.io/mailbox': o.mailbox },
    },
    spec: {
      replicas: 1,
      // One agent per mailbox at a time: a rolling update would run two against one state.
      strategy: { type: 'Recreate' },
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: { ...labels(o.syncTarget), ...selector },
          // The usual scrape hints; the port is also named `health` for a PodMonitor.
          annotations: {
            'prometheus.io/scrape': 'true',
            'prometheus.io/port': String(HEALTH_PORT),
            'prometheus.io/path': '/metrics',
          },
        },
        spec: {
          serviceAccountName: AGENT_NAME,
          automountServiceAccountToken: true,
          // A numeric non-root user whatever the image says; fsGroup lets it read the Secret.
          securityContext: {
            runAsNonRoot: true,
            runAsUser: AGENT_UID,
            runAsGroup: AGENT_UID,
            fsGroup: AGENT_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [container],
          volumes: [
            { name: 'credentials', secret: { secretName: AGENT_NAME, defaultMode: 0o440 } },
            // Survives container restarts; a rescheduled pod starts from the center's answer.
            { name: 'state', emptyDir: {} },
          ],
        },
      },
    },
  } as KubeObject
}

/** The documents, in apply order. */
export function renderEdgeManifests(o: EdgeManifestOptions): KubeObject[] {
  const namespace = o.namespace ?? DEFAULT_AGENT_NAMESPACE
  const meta = (name: string, ns?: string) => ({
    name,
    ...(ns ? { namespace: ns } : {}),
    labels: labels(o.syncTarget),
  })
  const rbac = agentRbac({ name: AGENT_NAME, namespace, labels: labels(o.syncTarget) })
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: meta(namespace) },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(AGENT_NAME, namespace) },
    ...rbac,
    ...tenantManifests({
      agentName: AGENT_NAME,
      agentNamespace: namespace,
      labels: labels(o.syncTarget),
    }),
    secret(o, namespace),
    deployment(o, namespace),
  ] as KubeObject[]
}

/** The documents as one multi-document YAML stream. */
export function renderEdgeManifestsYaml(o: EdgeManifestOptions): string {
  return renderEdgeManifests(o)
    .map((doc) => stringify(doc, { lineWidth: 0 }))
    .join('---\n')
}
