/**
 * The bootstrap CLI's one request: `POST <hub>/edge/v1/bootstrap` with the admin token, through an
 * injected `send` (infra/local/hub-request.ts in the CLI, which can trust a given CA; the app's
 * `request` in tests). A 503 (the SyncTarget's mailbox is not created yet) is retried every
 * `retryMs` until `waitSeconds` have passed; any other failure rejects with the Status message.
 * The answer is checked against the contract (lib/edge/manifests-bootstrap.ts).
 */
import {
  type BootstrapRequest,
  type BootstrapResponse,
  BootstrapResponseSchema,
} from '../../lib/edge/manifests-bootstrap.ts'
import { EDGE_API_PREFIX } from '../../lib/edge/protocol.ts'

export type SendFn = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string }
) => Promise<Response>

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

export class BootstrapError extends Error {
  override name = 'BootstrapError'
  code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

async function statusMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const body = JSON.parse(text) as { message?: unknown }
    if (typeof body.message === 'string') return body.message
  } catch {
    // not a Status
  }
  return text.slice(0, 300) || res.statusText
}

export async function requestBootstrap(
  call: BootstrapCall,
  send: SendFn
): Promise<BootstrapResponse> {
  const url = `${call.hubUrl.replace(/\/+$/, '')}${EDGE_API_PREFIX}/bootstrap`
  const sleep = call.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)))
  const retryMs = call.retryMs ?? 2000
  const deadline = Date.now() + call.waitSeconds * 1000
  for (;;) {
    const res = await send(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${call.token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(call.request),
    })
    if (res.ok) {
      const parsed = BootstrapResponseSchema.safeParse(await res.json().catch(() => undefined))
      if (!parsed.success) throw new BootstrapError(res.status, `unexpected answer from ${url}`)
      return parsed.data
    }
    const message = await statusMessage(res)
    if (res.status !== 503 || Date.now() + retryMs > deadline)
      throw new BootstrapError(res.status, `POST ${url}: HTTP ${res.status}: ${message}`)
    call.onRetry?.(message)
    await sleep(retryMs)
  }
}
