/**
 * A fake CENTER for the edge agent's tests: a small real HTTP server (node:http) speaking the
 * edge protocol of lib/edge/protocol.ts — the boundary between the agent and the center, whose
 * real side (functions/edge-api/) is built and tested separately. It keeps a mailbox manifest
 * (entries with content-hashed bodies, a generation per object and a version per change), answers
 * `GET .../desired` with 304 for the current If-None-Match and otherwise a delta (bodies changed
 * since the named version) or a full snapshot, records every request and report, and can be
 * switched to refuse connections (`mode = 'down'`), answer 503 (`mode = 'error'`) or 429
 * (`mode = 'busy'`), either with `retryAfter` as its Retry-After when set. With `holds` set it
 * holds polls as the real center does (`Prefer: wait=N` naming the current version: answered
 * when the version moves or after min(N, `holds`) seconds, with `Preference-Applied`); without,
 * it ignores `Prefer`, as a center older than held polls.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import {
  type DesiredEntry,
  type ObjectRef,
  type Report,
  type ReportResult,
  ReportSchema,
} from '../../../lib/edge/protocol.ts'
import { canonicalJson } from '../../../lib/patch/json-values.ts'

export const CENTER_TOKEN = 'edge-token-1'

type Stored = DesiredEntry & { body: Record<string, unknown> }

export type FakeCenter = {
  url: string
  mailbox: string
  mode: 'up' | 'down' | 'error' | 'busy'
  /** Sent as Retry-After with the 503s and 429s. */
  retryAfter?: string
  /** The longest hold granted (s); undefined: polls are never held. */
  holds?: number
  /** Polls being held now. */
  holding(): number
  version: number
  requests: { method: string; path: string; ifNoneMatch?: string; prefer?: string }[]
  reports: Report[]
  /** The next 200 answer leaves all bodies out (a broken delta). */
  omitBodiesOnce: boolean
  /** Answers for the next reports' `rejected` (consumed one per report). */
  rejectNext: ReportResult['rejected'][]
  /**
   * Puts (or replaces) an object, from the workload spaces `tenants` if given; bumps the version,
   * and the generation when the body changed.
   */
  put(ref: ObjectRef, body: Record<string, unknown>, tenants?: string[]): void
  remove(ref: ObjectRef): void
  /** Marks an object `removing` (a tombstone: sent without its body); bumps the version. */
  tombstone(ref: ObjectRef): void
  close(): Promise<void>
}

const keyOf = (r: ObjectRef) => `${r.group}/${r.resource}/${r.namespace}/${r.name}`
const hashOf = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex')

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startFakeCenter(mailbox = 'imw-mb-edge1'): Promise<FakeCenter> {
  const objects = new Map<string, Stored>()
  const sockets = new Set<Socket>()
  const prefix = `/edge/v1/mailboxes/${mailbox}`

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }

  const waiting = new Set<() => void>()
  const moved = () => {
    for (const w of [...waiting]) w()
  }

  /** Holds a poll of the current version until it moves or the hold ends; the hold granted. */
  async function hold(req: IncomingMessage, res: ServerResponse): Promise<number | undefined> {
    const asked = /^wait=(\d+)$/.exec(String(req.headers.prefer ?? ''))?.[1]
    if (center.holds === undefined || asked === undefined) return undefined
    const seconds = Math.min(Number(asked), center.holds)
    const tag = req.headers['if-none-match']
    if (tag !== `"${center.version}"`) return seconds
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, seconds * 1000)
      waiting.add(done)
      res.on('close', done)
    })
    return seconds
  }

  async function desired(req: IncomingMessage, res: ServerResponse) {
    const held = await hold(req, res)
    if (held !== undefined) res.setHeader('preference-applied', `wait=${held}`)
    const tag = req.headers['if-none-match']
    const named = tag ? Number(String(tag).replaceAll('"', '')) : undefined
    if (named === center.version) {
      res.writeHead(304, { etag: `"${center.version}"` })
      res.end()
      return
    }
    const full = named === undefined || Number.isNaN(named) || named > center.version
    const entries = [...objects.values()]
    const bodies: Record<string, Record<string, unknown>> = {}
    for (const e of entries)
      if (!e.removing && (full || e.rv > (named ?? 0))) bodies[e.hash] = e.body
    if (center.omitBodiesOnce) {
      center.omitBodiesOnce = false
      for (const k of Object.keys(bodies)) delete bodies[k]
    }
    res.setHeader('etag', `"${center.version}"`)
    json(res, 200, {
      kind: 'DesiredState',
      mailbox,
      version: center.version,
      full,
      entries: entries.map(({ body: _, ...e }) => e),
      bodies,
    })
  }

  /** 503 (error) or 429 (busy), with the Retry-After set. */
  function refuse(res: ServerResponse) {
    if (center.retryAfter) res.setHeader('retry-after', center.retryAfter)
    const code = center.mode === 'busy' ? 429 : 503
    json(res, code, { kind: 'Status', message: 'unavailable' })
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x')
    const ifNoneMatch = req.headers['if-none-match']
    const prefer = req.headers.prefer
    center.requests.push({
      method: req.method ?? '',
      path: url.pathname,
      ...(ifNoneMatch ? { ifNoneMatch: String(ifNoneMatch) } : {}),
      ...(prefer ? { prefer: String(prefer) } : {}),
    })
    if (center.mode === 'down') {
      req.socket.destroy()
      return
    }
    if (center.mode === 'error' || center.mode === 'busy') return refuse(res)
    if (req.headers.authorization !== `Bearer ${CENTER_TOKEN}`)
      return json(res, 401, { kind: 'Status', message: 'unauthorized' })
    if (req.method === 'GET' && url.pathname === `${prefix}/desired`) return desired(req, res)
    if (req.method === 'POST' && url.pathname === `${prefix}/reports`) {
      const report = ReportSchema.parse(JSON.parse(await readBody(req)))
      center.reports.push(report)
      const rejected = center.rejectNext.shift() ?? []
      const total =
        report.statuses.length +
        report.upsync.apply.length +
        report.upsync.delete.length +
        (report.removed?.length ?? 0)
      return json(res, 200, { kind: 'ReportResult', accepted: total - rejected.length, rejected })
    }
    json(res, 403, { kind: 'Status', message: 'forbidden' })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => json(res, 500, { kind: 'Status', message: String(e) }))
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  const center: FakeCenter = {
    url: `http://127.0.0.1:${port}`,
    mailbox,
    mode: 'up',
    holding: () => waiting.size,
    version: 0,
    requests: [],
    reports: [],
    rejectNext: [],
    omitBodiesOnce: false,
    put(ref, body, tenants) {
      const key = keyOf(ref)
      const prev = objects.get(key)
      const hash = hashOf(body)
      if (prev?.hash === hash && JSON.stringify(prev.tenants) === JSON.stringify(tenants)) return
      center.version += 1
      moved()
      objects.set(key, {
        ...ref,
        hash,
        generation: (prev?.generation ?? 0) + 1,
        rv: center.version,
        body,
        ...(tenants ? { tenants } : {}),
      })
    },
    remove(ref) {
      if (objects.delete(keyOf(ref))) {
        center.version += 1
        moved()
      }
    },
    tombstone(ref) {
      const prev = objects.get(keyOf(ref))
      if (!prev || prev.removing) return
      center.version += 1
      moved()
      objects.set(keyOf(ref), { ...prev, removing: true, rv: center.version })
    },
    async close() {
      moved()
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return center
}
