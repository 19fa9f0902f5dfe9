/**
 * The edge cluster's KubeConfig for the agent: the file given with `--kubeconfig` (and its
 * `--context`), else the in-cluster config when the agent runs in a pod (KUBERNETES_SERVICE_HOST
 * set and a service-account token mounted), else client-node's default ($KUBECONFIG or
 * ~/.kube/config, read by client-node from process.env). Throws when the named context does not exist or no cluster is configured.
 */
import { existsSync } from 'node:fs'
import { KubeConfig } from '@kubernetes/client-node'

export const SA_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token'

export type KubeConfigSource = { kubeconfig?: string; context?: string }

export function loadKubeConfig(
  o: KubeConfigSource,
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean = existsSync
): { kubeConfig: KubeConfig; source: string } {
  const kc = new KubeConfig()
  let source: string
  if (o.kubeconfig) {
    kc.loadFromFile(o.kubeconfig)
    source = o.kubeconfig
  } else if (env.KUBERNETES_SERVICE_HOST && exists(SA_TOKEN)) {
    kc.loadFromCluster()
    source = 'in-cluster'
  } else {
    kc.loadFromDefault()
    source = env.KUBECONFIG || 'default'
  }
  if (o.context) {
    if (!kc.getContextObject(o.context))
      throw new Error(`the kubeconfig has no context named ${o.context}`)
    kc.setCurrentContext(o.context)
  }
  if (!kc.getCurrentCluster()) throw new Error(`no cluster configured (kubeconfig: ${source})`)
  return { kubeConfig: kc, source }
}
