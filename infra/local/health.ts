/**
 * Waiting for a service to become healthy: polls `GET <url>` (trusting `ca` for https) until it
 * answers 200, giving up when `gaveUp()` reports a reason (the process died) or the deadline
 * passes. Returns nothing on success; throws an Error naming the reason otherwise.
 */
import { createRemote } from '../../lib/remote/remote-client.ts'

export type WaitHealthyOptions = {
  timeoutMs: number
  intervalMs?: number
  ca?: string
  /** A reason to stop waiting (e.g. "wrangler exited with code 1"), or undefined to go on. */
  gaveUp?: () => string | undefined
}

async function answers200(url: string, ca: string | undefined): Promise<boolean> {
  try {
    const res = await createRemote({ baseUrl: url, timeoutMs: 2000, ...(ca ? { ca } : {}) }).send(
      ''
    )
    await res.body?.cancel()
    return res.status === 200
  } catch {
    return false
  }
}

export async function waitHealthy(url: string, opts: WaitHealthyOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs
  const interval = opts.intervalMs ?? 200
  for (;;) {
    const reason = opts.gaveUp?.()
    if (reason) throw new Error(reason)
    if (await answers200(url, opts.ca)) return
    if (Date.now() >= deadline)
      throw new Error(`${url} did not answer 200 within ${opts.timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, interval))
  }
}
