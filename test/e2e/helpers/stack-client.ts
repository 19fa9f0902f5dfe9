/**
 * What a test uses to reach a running local stack, whether it started the stack itself
 * (stack.ts) or uses the one shared by the run's files (shared-stack.ts): kubectl with a given
 * kubeconfig file and a private KUBECACHEDIR, a client-node KubeConfig, authenticated requests to
 * the hub (trusting its self-signed certificate), stack.json, the relay's pid and the start
 * program's stderr. It reads the stack; stopping or killing parts of it is stack.ts's business.
 */

import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { readStackInfo, type StackInfo } from '../../../infra/local/stack-info.ts'
import { createRemote } from '../../../lib/remote/remote-client.ts'
import {
  type BackgroundKubectl,
  type KubectlOptions,
  type KubectlResult,
  runKubectl,
  startKubectl,
} from './kubectl.ts'

export type ApiInit = {
  method?: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  timeoutMs?: number
  token?: string | null
}

export type StackClient = {
  readonly dataDir: string
  readonly port: number
  readonly url: string
  /** The kubeconfig kubectl and kubeConfig() use (a copy of the stack's for a shared stack). */
  readonly kubeconfig: string
  /** stack.json of the current run, as read when it was ready. */
  info(): StackInfo
  /** stack.json read now (the relay pid changes when the relay is restarted). */
  readInfo(): Promise<StackInfo>
  /** The running relay's pid per stack.json; undefined with the relay off. */
  relayPid(): Promise<number | undefined>
  adminToken(): string
  kubectl(args: string[], opts?: KubectlOptions): Promise<KubectlResult>
  kubectlWatch(args: string[], opts?: { context?: string }): BackgroundKubectl
  /** A client-node KubeConfig loaded from the kubeconfig (current context, or `context`). */
  kubeConfig(context?: string): KubeConfig
  /** A request to the hub (trusting its certificate) with the admin token; `token: null` sends none. */
  api(path: string, init?: ApiInit): Promise<Response>
  /** The hub's self-signed certificate (PEM). */
  ca(): string
  /** The start program's stderr so far (JSON logs and failure messages). */
  output(): string
}

export type ClientParts = {
  dataDir: string
  port: number
  url: string
  kubeconfig: string
  cacheDir: string
  /** Getters: a stack restarted by stack.ts reads these again. */
  info(): StackInfo | undefined
  token(): string
  ca(): string
  output(): string
}

export async function readInfoNow(dataDir: string): Promise<StackInfo> {
  const now = await readStackInfo(join(dataDir, 'stack.json'))
  if (!now) throw new Error(`no stack.json in ${dataDir}`)
  return now
}

export function stackClient(parts: ClientParts): StackClient {
  const { dataDir, port, url, kubeconfig, cacheDir } = parts
  const kenv = { kubeconfig, cacheDir }
  const readInfo = () => readInfoNow(dataDir)
  return {
    dataDir,
    port,
    url,
    kubeconfig,
    info: () => {
      const info = parts.info()
      if (!info) throw new Error('stack not started')
      return info
    },
    readInfo,
    relayPid: async () => (await readInfo()).relay?.pid,
    adminToken: () => parts.token(),
    kubectl: (args, o) => runKubectl(kenv, args, o),
    kubectlWatch: (args, o) => startKubectl(kenv, args, o),
    kubeConfig: (context) => {
      const kc = new KubeConfig()
      kc.loadFromFile(kubeconfig)
      if (context) kc.setCurrentContext(context)
      return kc
    },
    api: (path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers }
      const bearer = init.token === undefined ? parts.token() : init.token
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`
      const hub = createRemote({
        baseUrl: url,
        ca: parts.ca(),
        timeoutMs: init.timeoutMs ?? 30_000,
      })
      return hub.send(path, { method: init.method ?? 'GET', headers, body: init.body })
    },
    ca: () => parts.ca(),
    output: () => parts.output(),
  }
}
