/**
 * The agent's side of the edge API (lib/edge/protocol.ts): `getDesired` asks for the mailbox's
 * desired state, naming the version it holds in If-None-Match (304 → unchanged), and `postReport`
 * sends one report. The bearer token is read through `token()` before each request, so a rotated
 * token (a re-mounted Secret file) is picked up without a restart. Every failure — no answer, a
 * timeout, a non-2xx status, a body that does not parse — rejects with a CenterError (`code` 0
 * when there was no HTTP answer); the caller then changes nothing and backs off.
 */
import {
  type DesiredState,
  DesiredStateSchema,
  EDGE_API_PREFIX,
  type Report,
  type ReportResult,
  ReportResultSchema,
} from '../edge/protocol.ts'

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

export type CenterClientOptions = {
  /** Center base URL, e.g. https://edgeplane.example (no trailing path). */
  baseUrl: string
  mailbox: string
  token: () => Promise<string>
  fetch?: FetchFn
  timeoutMs?: number
}

export type DesiredAnswer = { kind: 'unchanged' } | { kind: 'desired'; state: DesiredState }

export type CenterClient = {
  getDesired(version?: number): Promise<DesiredAnswer>
  postReport(report: Report): Promise<ReportResult>
}

export class CenterError extends Error {
  override name = 'CenterError'
  code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

export function createCenterClient(o: CenterClientOptions): CenterClient {
  const doFetch = o.fetch ?? ((input, init) => fetch(input, init))
  const base = `${o.baseUrl.replace(/\/+$/, '')}${EDGE_API_PREFIX}/mailboxes/${encodeURIComponent(o.mailbox)}`
  const timeoutMs = o.timeoutMs ?? 30_000

  async function request(path: string, init: RequestInit): Promise<Response> {
    const what = `${init.method ?? 'GET'} ${path}`
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${await o.token()}`)
    try {
      return await doFetch(`${base}${path}`, {
        ...init,
        headers,
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code
      const msg = e instanceof Error ? e.message : String(e)
      throw new CenterError(0, `${what}: ${msg}${cause ? ` (${cause})` : ''}`)
    }
  }

  async function failure(res: Response, what: string): Promise<CenterError> {
    const text = await res.text().catch(() => '')
    return new CenterError(res.status, `${what}: HTTP ${res.status} ${text.slice(0, 300)}`.trim())
  }

  async function parsed<T>(res: Response, what: string, parse: (v: unknown) => T): Promise<T> {
    try {
      return parse(await res.json())
    } catch (e) {
      throw new CenterError(res.status, `${what}: unreadable answer: ${String(e).slice(0, 300)}`)
    }
  }

  return {
    async getDesired(version) {
      const headers: Record<string, string> = { accept: 'application/json' }
      if (version !== undefined) headers['if-none-match'] = `"${version}"`
      const res = await request('/desired', { method: 'GET', headers })
      if (res.status === 304) {
        await res.body?.cancel()
        return { kind: 'unchanged' }
      }
      if (res.status !== 200) throw await failure(res, 'GET desired')
      const state = await parsed(res, 'GET desired', (v) => DesiredStateSchema.parse(v))
      return { kind: 'desired', state }
    },
    async postReport(report) {
      const res = await request('/reports', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(report),
      })
      if (res.status < 200 || res.status > 299) throw await failure(res, 'POST reports')
      return parsed(res, 'POST reports', (v) => ReportResultSchema.parse(v))
    },
  }
}
