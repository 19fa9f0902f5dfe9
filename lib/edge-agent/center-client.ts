/**
 * The agent's side of the edge API (lib/edge/protocol.ts), over the one remote client
 * (lib/remote/remote-client.ts): `getDesired` asks for the mailbox's desired state, naming the
 * version it holds in If-None-Match (304 → unchanged), and `postReport` sends one report. The
 * bearer token is read through `token()` before each request, so a rotated token (a re-mounted
 * Secret file) is picked up without a restart; `ca` is the center's CA (`--center-ca`). With
 * `agent` (agent-info.ts) every report carries the agent's version and poll interval. Every
 * failure — no answer, a timeout, a non-2xx status, a body that does not parse — rejects with a
 * RemoteError (`code` 0 when there was no HTTP answer); the caller then changes nothing and backs
 * off. A 401 says why the center refuses the token (token-refused.ts: rotated or revoked).
 */
import {
  type AgentInfo,
  type DesiredState,
  DesiredStateSchema,
  EDGE_API_PREFIX,
  type Report,
  type ReportResult,
  ReportResultSchema,
} from '../edge/protocol.ts'
import type { FetchFn } from '../remote/node-transport.ts'
import { createRemote, failureOf, readJson } from '../remote/remote-client.ts'
import { unreadableError } from '../remote/remote-error.ts'
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
  /** Sent as every report's `agent` (a report that names its own keeps it). */
  agent?: AgentInfo
}

export type DesiredAnswer = { kind: 'unchanged' } | { kind: 'desired'; state: DesiredState }

export type CenterClient = {
  getDesired(version?: number): Promise<DesiredAnswer>
  postReport(report: Report): Promise<ReportResult>
}

export function createCenterClient(o: CenterClientOptions): CenterClient {
  const remote = createRemote({
    baseUrl: `${o.baseUrl.replace(/\/+$/, '')}${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(o.mailbox)}`,
    token: o.token,
    timeoutMs: o.timeoutMs ?? 30_000,
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.fetch ? { fetch: o.fetch } : {}),
  })

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
      if (res.status === 304) {
        await res.body?.cancel()
        return { kind: 'unchanged' }
      }
      if (res.status !== 200) throw explainRefusedToken(await failureOf(res, what), what)
      const state = await parsed(res, what, (v) => DesiredStateSchema.parse(v))
      return { kind: 'desired', state }
    },
    async postReport(report) {
      const what = 'POST reports'
      const res = await remote.send('/reports', {
        method: 'POST',
        accept: 'application/json',
        body: o.agent && !report.agent ? { ...report, agent: o.agent } : report,
        what,
      })
      if (!res.ok) throw explainRefusedToken(await failureOf(res, what), what)
      return parsed(res, what, (v) => ReportResultSchema.parse(v))
    },
  }
}
