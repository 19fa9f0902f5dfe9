/**
 * The namespace of the agent's ownership record (lib/edge-agent/owned-keeper.ts): `--namespace`
 * (EDGEPLANE_NAMESPACE) when given; else, for an agent using the in-cluster config, its pod's own
 * namespace (the service-account namespace file, which the bootstrap's Role covers); else
 * `edgeplane-system`, the namespace the bootstrap manifests create.
 */
import { readFile } from 'node:fs/promises'
import { DEFAULT_AGENT_NAMESPACE } from '../../lib/edge/manifests.ts'

export const SA_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace'

export async function recordNamespace(
  explicit: string | undefined,
  inCluster: boolean,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8')
): Promise<string> {
  if (explicit) return explicit
  if (!inCluster) return DEFAULT_AGENT_NAMESPACE
  const own = (await read(SA_NAMESPACE).catch(() => '')).trim()
  return own || DEFAULT_AGENT_NAMESPACE
}
