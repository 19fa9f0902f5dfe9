/**
 * Connects one simulated edge cluster to the center the way a real one is connected: the bootstrap
 * endpoint issues the mailbox credential and the manifests (infra/edge-bootstrap/call.ts), the
 * manifests are applied to the edge cluster by server-side apply (Namespace, ServiceAccount, RBAC,
 * the Secret, the agent Deployment), and the agent's settings are then read back from that Secret,
 * as a pod mounting it would see them, into `<dir>/credentials/` (token, ca.crt; mode 0600). On a
 * later start a Secret that names the same mailbox, this stack's center URL and certificate, and
 * whose token the center still accepts is reused, so restarts do not rotate the credential.
 * Anything else (edge-secret.ts: a new mailbox, the SyncTarget re-created; another center, say a
 * Secret applied from a bootstrap with another `--center-url`; another certificate; a token the
 * center refuses, rotated or revoked) is repaired by a new bootstrap with `rotate`, and logged
 * with the reason.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { KubeConfig } from '@kubernetes/client-node'
import { parseAllDocuments } from 'yaml'
import { AGENT_NAME, DEFAULT_AGENT_NAMESPACE } from '../../lib/edge/manifests.ts'
import { EDGE_API_PREFIX } from '../../lib/edge/protocol.ts'
import { createKubeRest } from '../../lib/edge-agent/kube-rest.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import type { Logger } from '../../lib/log.ts'
import { nodeTransport } from '../../lib/remote/node-transport.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'
import { requestBootstrap } from '../edge-bootstrap/call.ts'
import { writePrivateFile } from './data-dir.ts'
import type { RegisteredEdge } from './edge-inventory.ts'
import { hasSecret, secretValues, staleReason } from './edge-secret.ts'
import { EDGE_INVENTORY } from './edges-config.ts'

export type Center = { url: string; adminToken: string; caPem: string }

export type JoinOptions = {
  center: Center
  edge: RegisteredEdge
  /** A KubeConfig reaching the edge cluster with its admin token. */
  edgeKube: KubeConfig
  /** The edge's folder in the data folder (`<data>/edges/<name>`). */
  dir: string
  pollIntervalSeconds: number
  /** How long to wait for the mailbox step to create the mailbox. */
  waitSeconds?: number
  log: Logger
}

export type JoinedEdge = {
  mailbox: string
  centerUrl: string
  tokenFile: string
  caFile: string | undefined
  /** True when a new credential was issued (first start, or the old Secret could not be kept). */
  issued: boolean
  /** Why the Secret found at the edge was not kept (absent when none was there or it was kept). */
  repaired?: string
}

const SECRET_REF = {
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespace: DEFAULT_AGENT_NAMESPACE,
  name: AGENT_NAME,
}

async function centerAccepts(center: Center, mailbox: string, token: string): Promise<boolean> {
  const hub = createRemote({ baseUrl: center.url, token, ca: center.caPem, timeoutMs: 30_000 })
  const res = await hub.send(`${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(mailbox)}/desired`)
  await res.body?.cancel()
  return res.ok || res.status === 304
}

/** Applies a multi-document YAML stream, in order, resolving kinds through discovery. */
async function applyManifests(kube: ReturnType<typeof createKubeRest>, yaml: string) {
  const served = await kube.discover()
  for (const doc of parseAllDocuments(yaml)) {
    const obj = doc.toJS() as KubeObject
    const [group, version] = obj.apiVersion.includes('/')
      ? obj.apiVersion.split('/')
      : ['', obj.apiVersion]
    const r = served.find((s) => s.group === group && s.version === version && s.kind === obj.kind)
    if (!r) throw new Error(`the edge cluster does not serve ${obj.apiVersion} ${obj.kind}`)
    const ref = {
      group: r.group,
      version: r.version,
      resource: r.resource,
      namespace: r.namespaced ? (obj.metadata?.namespace ?? 'default') : '',
      name: obj.metadata?.name ?? '',
    }
    await kube.apply(ref, obj, { fieldManager: 'kubectl', force: true })
  }
}

/** Why the Secret found cannot be kept, or undefined when it can. */
async function whyNotKept(o: JoinOptions, values: ReturnType<typeof secretValues>) {
  const want = { mailbox: o.edge.mailbox, centerUrl: o.center.url, caPem: o.center.caPem }
  const stale = staleReason(values, want)
  if (stale !== undefined) return stale
  const accepted = await centerAccepts(o.center, o.edge.mailbox, values.token ?? '')
  return accepted ? undefined : 'the center refuses its token (rotated or revoked)'
}

export async function joinEdge(o: JoinOptions): Promise<JoinedEdge> {
  const kube = createKubeRest({ kubeConfig: o.edgeKube })
  let values = secretValues(await kube.get(SECRET_REF))
  const first = !hasSecret(values)
  const reason = await whyNotKept(o, values)
  if (reason !== undefined) {
    if (!first)
      o.log.warn('joining the edge again: its agent Secret cannot be kept', {
        edge: o.edge.name,
        reason,
      })
    const answer = await requestBootstrap(
      {
        hubUrl: o.center.url,
        token: o.center.adminToken,
        request: {
          inventory: EDGE_INVENTORY,
          syncTarget: o.edge.name,
          centerUrl: o.center.url,
          caPem: o.center.caPem,
          pollIntervalSeconds: o.pollIntervalSeconds,
          rotate: true,
        },
        waitSeconds: o.waitSeconds ?? 90,
        retryMs: 500,
      },
      nodeTransport({ ca: o.center.caPem })
    )
    await applyManifests(kube, answer.manifests)
    values = secretValues(await kube.get(SECRET_REF))
  }
  if (!values.token || !values.mailbox || !values.center)
    throw new Error(`the edge ${o.edge.name} has no complete ${AGENT_NAME} Secret`)
  const credentials = join(o.dir, 'credentials')
  await mkdir(credentials, { recursive: true })
  const tokenFile = join(credentials, 'token')
  await writePrivateFile(tokenFile, values.token)
  let caFile: string | undefined
  if (values.ca) {
    caFile = join(credentials, 'ca.crt')
    await writePrivateFile(caFile, values.ca)
  }
  return {
    mailbox: values.mailbox,
    centerUrl: values.center,
    tokenFile,
    caFile,
    issued: reason !== undefined,
    ...(reason !== undefined && !first ? { repaired: reason } : {}),
  }
}
