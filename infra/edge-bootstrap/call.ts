/**
 * The bootstrap CLI's one request: `POST <hub>/edge/v1/bootstrap` with the admin token, over the
 * one remote client (lib/remote/remote-client.ts) with an injected transport `send`
 * (node-transport.ts trusting a given CA in the CLI; the app's `request` in tests). A 503 (the
 * SyncTarget's mailbox is not created yet) is retried every `retryMs` until `waitSeconds` have
 * passed; any other failure rejects with a RemoteError carrying the code and the Status message.
 * The answer is checked against the contract (lib/edge/manifests-bootstrap.ts).
 */
import {
  type BootstrapRequest,
  type BootstrapResponse,
  BootstrapResponseSchema,
} from '../../lib/edge/manifests-bootstrap.ts'
import { EDGE_API_PREFIX } from '../../lib/edge/protocol.ts'
import type { FetchFn } from '../../lib/remote/node-transport.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'
import { isRemoteError, RemoteError } from '../../lib/remote/remote-error.ts'

export type SendFn = FetchFn

export type BootstrapCall = {
  hubUrl: string
  token: string
  request: BootstrapRequest
  waitSeconds: number
  retryMs?: number
  sleep?: (ms: number) => Promise<void>
  /** Told about each retry. */
  onRetry?: (message: string) => void
}

export async function requestBootstrap(
  call: BootstrapCall,
  send: SendFn
): Promise<BootstrapResponse> {
  const remote = createRemote({
    baseUrl: call.hubUrl,
    token: call.token,
    fetch: send,
    timeoutMs: 30_000,
  })
  const path = `${EDGE_API_PREFIX}/bootstrap`
  const what = `POST ${remote.baseUrl}${path}`
  const sleep = call.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)))
  const retryMs = call.retryMs ?? 2000
  const deadline = Date.now() + call.waitSeconds * 1000
  for (;;) {
    let answer: unknown
    try {
      answer = await remote.call(path, {
        method: 'POST',
        accept: 'application/json',
        body: call.request,
        what,
      })
    } catch (e) {
      if (!isRemoteError(e, 503) || Date.now() + retryMs > deadline) throw e
      call.onRetry?.(e.detail)
      await sleep(retryMs)
      continue
    }
    const parsed = BootstrapResponseSchema.safeParse(answer)
    if (!parsed.success)
      throw new RemoteError(200, `unexpected answer from ${remote.baseUrl}${path}`, {
        kind: 'unreadable',
      })
    return parsed.data
  }
}
