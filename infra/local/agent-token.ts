/**
 * The credentials `npm start` runs an edge's agent with: a token of the agent's ServiceAccount
 * (`edgeplane-system/edgeplane-agent`, made by the bootstrap manifests), issued by the simulated
 * edge's TokenRequest as `kubectl create token` would ask for it, and a kubeconfig of that token
 * in `<data>/edges/<name>/agent-kubeconfig` (mode 0600). So the agent reaches its cluster as a
 * pod's mounted token would, and the edge's RBAC judges it (and the tenants it impersonates)
 * rather than an admin token. A fresh token at every start; it lasts a year.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { AGENT_NAME, DEFAULT_AGENT_NAMESPACE } from '../../lib/edge/manifests.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'
import { writePrivateFile } from './data-dir.ts'
import { renderKubeconfig } from './kubeconfig.ts'

const TOKEN_SECONDS = 365 * 24 * 3600
const AnswerSchema = z.looseObject({ status: z.looseObject({ token: z.string().min(1) }) })

export type AgentCredentialsOptions = {
  /** The edge's name (its kubeconfig context) and API URL. */
  name: string
  url: string
  adminToken: string
  caPem: string
  dir: string
}

/** Issues the agent's token and writes its kubeconfig; answers the kubeconfig's path. */
export async function writeAgentKubeconfig(o: AgentCredentialsOptions): Promise<string> {
  const edge = createRemote({
    baseUrl: o.url,
    token: o.adminToken,
    ca: o.caPem,
    timeoutMs: 30_000,
  })
  const path = `/api/v1/namespaces/${DEFAULT_AGENT_NAMESPACE}/serviceaccounts/${AGENT_NAME}/token`
  const answer = AnswerSchema.parse(
    await edge.call(path, {
      method: 'POST',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: TOKEN_SECONDS },
      },
    })
  )
  const token = answer.status.token
  const file = join(o.dir, 'agent-kubeconfig')
  const text = renderKubeconfig({
    hubUrl: o.url,
    adminToken: token,
    user: `${AGENT_NAME}-sa`,
    caPem: o.caPem,
    spaces: [],
    extra: [{ name: o.name, server: o.url, token }],
  })
  await writePrivateFile(file, text)
  return file
}
