/**
 * The agent's side of the edge API (lib/edge/protocol.ts), over the one remote client
 * (lib/remote/remote-client.ts): `getDesired` asks for the mailbox's desired state, naming the
 * version it holds in If-None-Match (304 → unchanged), and `postReport` sends one report. The
 * bearer token is read through `token()` before each request, so a rotated token (a re-mounted
 * Secret file) is picked up without a restart; `ca` is the center's CA (`--center-ca`). With
 * `agent` (agent-info.ts, poll-notes.ts) every report carries the agent's version, poll interval
 * and how its last poll went. Every failure — no answer, a timeout, a non-2xx status, a body that
 * does not parse — rejects with a RemoteError (`code` 0 when there was no HTTP answer); the caller
 * then changes nothing and backs off. A 401 says why the center refuses the token
 * (token-refused.ts: rotated or revoked). `holdDesired` is the held poll (lib/edge/protocol.ts,
 * "Held polls"): the same request with `Prefer: wait=N`, bounded by N plus the usual timeout,
 * over node:http(s) (Node's fetch gives up on an answer's headers after 300 s); its answer says
 * how long the center held it (`Preference-Applied`), undefined from a center that does not hold. A 429 or 503 carrying
 * `Retry-After` is noted (`onRetryAfter`, retry-after.ts) before it rejects.
 */

import { parseAppliedWait } from '../edge/prefer-wait.ts'
import {
  type AgentInfo,
  type DesiredState,
  DesiredStateSchema,
  EDGE_API_PREFIX,
  type Report,
  type ReportResult,
  ReportResultSchema,
} from '../edge/protocol.ts'
import { type FetchFn, nodeTransport } from '../remote/node-transport.ts'
import { createRemote, failureOf, readJson } from '../remote/remote-client.ts'
import { unreadableError } from '../remote/remote-error.ts'
import { retryAfterOf } from './retry-after.ts'
import { explainRefusedToken } from './token-refused.ts'

export type CenterClientOptions = {
  /** Center base URL, e.g. https://edgeplane.example (no trailing path). */
  baseUrl: string
  mailbox: string
  token: () => Promise<string>
  /** PEM certificate(s) to trust for an https center. */
  ca?: string
  fetch?: FetchFn
  timeoutMs?: number
  /**
   * Sent as every report's `agent` (a report that names its own keeps it); a function is asked at
   * each report (poll-notes.ts: what the agent says changes with its polls).
   */
  agent?: AgentInfo | (() => AgentInfo | undefined)
  /** Told the wait (ms) a 429 or 503 answer's Retry-After asks for. */
  onRetryAfter?: (ms: number) => void
}

export type DesiredAnswer = { kind: 'unchanged' } | { kind: 'desired'; state: DesiredState }

/** A held poll's answer, with the hold the center applied (undefined: it does not hold). */
export type HeldAnswer = DesiredAnswer & { heldSeconds: number | undefined }

export type HoldOptions = { waitSeconds: number; signal?: AbortSignal }

export type CenterClient = {
  getDesired(version?: number): Promise<DesiredAnswer>
  /**
   * The desired state, the center asked to hold the answer up to `waitSeconds` while unchanged
   * (absent from clients that never hold: test fakes).
   */
  holdDesired?(version: number, o: HoldOptions): Promise<HeldAnswer>
  postReport(report: Report): Promise<ReportResult>
}

export function createCenterClient(o: CenterClientOptions): CenterClient {
  const timeoutMs = o.timeoutMs ?? 30_000
  const baseUrl = `${o.baseUrl.replace(/\/+$/, '')}${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(o.mailbox)}`
  const remote = createRemote({
    baseUrl,
    token: o.token,
    timeoutMs,
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  })
  const holding = createRemote({
    baseUrl,
    token: o.token,
    fetch: o.fetch ?? nodeTransport(o.ca ? { ca: o.ca } : {}),
  })

  /** The error of a failed answer, its Retry-After noted first. */
  async function failed(res: Response, what: string) {
    const wait = retryAfterOf(res, Date.now())
    if (wait !== undefined) o.onRetryAfter?.(wait)
    return explainRefusedToken(await failureOf(res, what), what)
  }

  async function desiredOf(res: Response, what: string): Promise<DesiredAnswer> {
    if (res.status === 304) {
      await res.body?.cancel()
      return { kind: 'unchanged' }
    }
    if (res.status !== 200) throw await failed(res, what)
    const state = await parsed(res, what, (v) => DesiredStateSchema.parse(v))
    return { kind: 'desired', state }
  }

  async function parsed<T>(res: Response, what: string, parse: (v: unknown) => T): Promise<T> {
    const body = await readJson(res, what)
    try {
      return parse(body)
    } catch (e) {
      throw unreadableError(res.status, what, e)
    }
  }

  return {
    async getDesired(version) {
      const what = 'GET desired'
      const headers: Record<string, string> = {}
      if (version !== undefined) headers['if-none-match'] = `"${version}"`
      const res = await remote.send('/desired', { accept: 'application/json', headers, what })
      return desiredOf(res, what)
    },
    async holdDesired(version, h) {
      const what = 'GET desired (held)'
      const res = await holding.send('/desired', {
        accept: 'application/json',
        headers: { 'if-none-match': `"${version}"`, prefer: `wait=${h.waitSeconds}` },
        timeoutMs: h.waitSeconds * 1000 + timeoutMs,
        ...(h.signal ? { signal: h.signal } : {}),
        what,
      })
      const heldSeconds = parseAppliedWait(res.headers.get('preference-applied'))
      return { ...(await desiredOf(res, what)), heldSeconds }
    },
    async postReport(report) {
      const what = 'POST reports'
      const agent = typeof o.agent === 'function' ? o.agent() : o.agent
      const res = await remote.send('/reports', {
        method: 'POST',
        accept: 'application/json',
        body: agent && !report.agent ? { ...report, agent } : report,
        what,
      })
      if (!res.ok) throw await failed(res, what)
      return parsed(res, what, (v) => ReportResultSchema.parse(v))
    },
  }
}
