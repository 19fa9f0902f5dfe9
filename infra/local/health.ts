/**
 * Waiting for a service to become healthy: polls `GET <url>` (trusting `ca` for https) until it
 * answers 200 — with `instance`, only an answer carrying that label (lib/instance-label.ts)
 * counts, so a process that took the port meanwhile is never taken for the one started — giving up when `gaveUp()` reports a reason (the process died) or the deadline
 * passes. Returns nothing on success; throws an Error naming the reason otherwise.
 */
import { INSTANCE_HEADER } from '../../lib/instance-label.ts'
import { createRemote } from '../../lib/remote/remote-client.ts'

export type WaitHealthyOptions = {
  timeoutMs: number
  intervalMs?: number
  ca?: string
  /** The instance label the answer must carry (INSTANCE_ID); absent: any 200 counts. */
  instance?: string
  /** A reason to stop waiting (e.g. "wrangler exited with code 1"), or undefined to go on. */
  gaveUp?: () => string | undefined
}

/** Whether `GET <url>` answers 200 (with the label `instance`, when given) within `timeoutMs`. */
export async function answersHealthy(
  url: string,
  opts: { ca?: string; instance?: string; timeoutMs?: number; headers?: Record<string, string> }
): Promise<boolean> {
  try {
    const remote = createRemote({
      baseUrl: url,
      timeoutMs: opts.timeoutMs ?? 2000,
      ...(opts.ca ? { ca: opts.ca } : {}),
    })
    const res = await remote.send('', opts.headers ? { headers: opts.headers } : {})
    await res.body?.cancel()
    if (res.status !== 200) return false
    return opts.instance === undefined || res.headers.get(INSTANCE_HEADER) === opts.instance
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
    if (await answersHealthy(url, opts)) return
    if (Date.now() >= deadline) {
      const as = opts.instance === undefined ? '' : ` as instance ${opts.instance}`
      throw new Error(`${url} did not answer 200${as} within ${opts.timeoutMs} ms`)
    }
    await new Promise((r) => setTimeout(r, interval))
  }
}
