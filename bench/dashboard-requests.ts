/**
 * The dashboard's requests through `npm start`, once the fleet is placed (scale-npm-start.ts): a
 * login, then each view the page asks for — the matrix's first and middle windows of 100 edges,
 * the same with "needs attention", one cell, the placement panel, the first page of 200 edges —
 * REPEAT times each, sequentially, as one page would. Prints the median and the slowest answer
 * and the answer's size; nothing here is a pass/fail limit.
 */
import type { Remote } from '../lib/remote/remote-client.ts'
import { percentile } from './stats.ts'

const REPEAT = 5
const UI = { 'x-edgeplane-ui': '1' }

export type DashboardTiming = { view: string; p50Ms: number; maxMs: number; bytes: number }

async function session(hub: Remote, token: string): Promise<Record<string, string>> {
  const res = await hub.send('/ui/api/login', { method: 'POST', body: { token }, headers: UI })
  if (res.status !== 200) throw new Error(`dashboard login answered ${res.status}`)
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  return { ...UI, cookie }
}

async function timed(hub: Remote, headers: Record<string, string>, path: string) {
  const ms: number[] = []
  let bytes = 0
  let body: unknown
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now()
    const res = await hub.send(path, { headers })
    const text = await res.text()
    ms.push(performance.now() - t0)
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`)
    bytes = text.length
    body = JSON.parse(text)
  }
  ms.sort((a, b) => a - b)
  return { p50Ms: percentile(ms, 50), maxMs: Math.max(...ms), bytes, body }
}

/** Times the dashboard's views of workload space `space` whose placement is `placement`. */
export async function timeDashboard(
  hub: Remote,
  at: { token: string; space: string; placement: string; edges: number }
): Promise<DashboardTiming[]> {
  const headers = await session(hub, at.token)
  const q = (p: Record<string, string>) => new URLSearchParams(p).toString()
  const out: DashboardTiming[] = []
  const time = async (view: string, path: string) => {
    const r = await timed(hub, headers, path)
    out.push({ view, p50Ms: r.p50Ms, maxMs: r.maxMs, bytes: r.bytes })
    return r.body as { edges?: { items?: { key: string }[] } }
  }
  const first = await time(
    'matrix, first 100 edges',
    `/ui/api/matrix?${q({ space: at.space, limit: '100' })}`
  )
  const middle = String(Math.floor(at.edges / 2))
  await time(
    'matrix, 100 edges mid-fleet',
    `/ui/api/matrix?${q({ space: at.space, limit: '100', offset: middle })}`
  )
  await time(
    'matrix, needs attention',
    `/ui/api/matrix?${q({ space: at.space, limit: '100', attention: '1' })}`
  )
  const edge = first.edges?.items?.[0]?.key
  if (edge)
    await time('cell', `/ui/api/cell?${q({ space: at.space, placement: at.placement, edge })}`)
  await time('placement panel', `/ui/api/placement?${q({ space: at.space, name: at.placement })}`)
  await time('edges, first 200', `/ui/api/edges?${q({ limit: '200' })}`)
  return out
}
