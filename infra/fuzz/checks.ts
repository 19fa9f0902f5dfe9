/**
 * The per-answer checks of the fuzzer (the state checks live in runner.ts): an answer at all; no
 * 5xx; every error a kube Status (kind Status, apiVersion v1, status Failure, a reason, code equal
 * to the HTTP status; HEAD and 304 carry no body by definition); no 2xx for a request kube always
 * refuses; a watch from a future resourceVersion not silent. The one tolerated 5xx is kube's own
 * answer to a read ahead of the store — 504 Timeout with a cause of type ResourceVersionTooLarge,
 * which client-go's reflector relies on — and only for requests generated as such.
 */
import type { Answer, FuzzRequest, Violation } from './types.ts'

export type Verdict = { violations: Omit<Violation, 'index' | 'request'>[]; rvTooLarge: boolean }

type Status = {
  kind?: unknown
  apiVersion?: unknown
  status?: unknown
  reason?: unknown
  code?: unknown
  details?: { causes?: { type?: unknown; reason?: unknown }[] }
}

/** Why `body` is not a kube failure Status for HTTP `code`, or undefined when it is. */
export function statusProblem(body: unknown, code: number): string | undefined {
  if (!body || typeof body !== 'object') return 'the body is not a JSON object'
  const s = body as Status
  const wrong: string[] = []
  if (s.kind !== 'Status') wrong.push(`kind ${JSON.stringify(s.kind)}`)
  if (s.apiVersion !== 'v1') wrong.push(`apiVersion ${JSON.stringify(s.apiVersion)}`)
  if (s.status !== 'Failure') wrong.push(`status ${JSON.stringify(s.status)}`)
  if (typeof s.reason !== 'string' || s.reason === '')
    wrong.push(`reason ${JSON.stringify(s.reason)}`)
  if (s.code !== code) wrong.push(`code ${JSON.stringify(s.code)} (HTTP ${code})`)
  return wrong.length ? wrong.join(', ') : undefined
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** kube's answer to a read ahead of the store (see the header). */
export function isRvTooLarge(body: unknown): boolean {
  const s = body as Status | undefined
  return (
    s?.kind === 'Status' &&
    s.code === 504 &&
    s.reason === 'Timeout' &&
    (s.details?.causes ?? []).some(
      (c) => c.type === 'ResourceVersionTooLarge' || c.reason === 'ResourceVersionTooLarge'
    )
  )
}

/** The objects of a watch stream's ERROR events. */
function watchErrors(text: string): unknown[] {
  const out: unknown[] = []
  for (const line of text.split('\n')) {
    const ev = parseJson(line.trim()) as { type?: string; object?: unknown } | undefined
    if (ev?.type === 'ERROR') out.push(ev.object)
  }
  return out
}

/** The ERROR events of a watch stream and its silence; true when it answered TooLarge. */
function checkWatch(
  r: FuzzRequest,
  a: Answer,
  add: (kind: Violation['kind'], detail: string) => void
): boolean {
  let rvTooLarge = false
  for (const obj of watchErrors(a.body)) {
    const s = obj as Status
    if (typeof s?.code === 'number' && s.code >= 500 && !(r.futureRv && isRvTooLarge(obj)))
      add(
        'server-error',
        `watch ERROR event with code ${s.code}: ${JSON.stringify(obj).slice(0, 300)}`
      )
    else if (typeof s?.code === 'number') {
      const why = statusProblem(obj, s.code)
      if (why) add('not-a-status', `watch ERROR event: ${why}`)
    }
    if (r.futureRv && isRvTooLarge(obj)) rvTooLarge = true
  }
  if (r.futureRv && a.silent)
    add(
      'silent-watch',
      'a watch from a resourceVersion ahead of the store stayed silent (kube sends an ERROR event: Too large resource version)'
    )
  return rvTooLarge
}

export function checkAnswer(r: FuzzRequest, a: Answer): Verdict {
  const v: Verdict['violations'] = []
  let rvTooLarge = false
  const add = (kind: Violation['kind'], detail: string) =>
    v.push({ kind, status: a.status, detail })
  if (a.status === 0) {
    add('no-answer', a.error ?? 'no HTTP answer')
    return { violations: v, rvTooLarge }
  }
  const body = parseJson(a.body)
  if (a.status >= 500) {
    if (r.futureRv && isRvTooLarge(body)) rvTooLarge = true
    else add('server-error', `HTTP ${a.status}: ${a.body.slice(0, 300)}`)
  }
  const bodyless = r.method === 'HEAD' || a.status === 304 || (a.status >= 100 && a.status < 200)
  if ((a.status < 200 || a.status >= 300) && !bodyless) {
    const why = statusProblem(body, a.status)
    if (why)
      add(
        'not-a-status',
        `${why}; content-type ${JSON.stringify(a.contentType)}; body ${JSON.stringify(a.body.slice(0, 200))}`
      )
  }
  if (a.status >= 200 && a.status < 300 && r.mustRefuse)
    add(
      'accepted-hostile',
      `kube refuses this request; the hub answered ${a.status}: ${a.body.slice(0, 200)}`
    )
  if (a.status === 200 && (r.watch || /[?&]watch=/i.test(r.path)) && checkWatch(r, a, add))
    rvTooLarge = true
  return { violations: v, rvTooLarge }
}
