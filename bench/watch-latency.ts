/**
 * Phase 4: watch delivery latency through the hub. Opens a watch (HTTP streaming, from the
 * namespace's current resourceVersion, so no initial events) on a fresh namespace's configmaps,
 * then makes `changes` writes spaced `intervalMs` apart — create, merge patch, delete, repeated —
 * and measures, per write, the time from its response to the arrival of the event carrying its
 * resourceVersion on the stream. Events that do not arrive within settle + 5 s count as missing.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import { configMapPath, type HubClient, resourceVersionOf } from './hub-client.ts'
import { createNamespace } from './hub-crud.ts'
import { configMap } from './payload.ts'
import { type Summary, summarize } from './stats.ts'

export type WatchLatency = {
  settleMs: number
  changes: number
  delivered: number
  missing: number
  /** Write response -> event arrival, ms. */
  latencyMs: Summary
  byType: Record<string, Summary>
}

export type WatchOptions = {
  namespace: string
  changes: number
  intervalMs: number
  settleMs: number
  itemBytes: number
}

type Arrival = { at: number; type: string }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Reads NDJSON watch events from `body` into `arrivals` (by resourceVersion) until it ends. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  arrivals: Map<string, Arrival>
): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      const at = performance.now()
      buffer += decoder.decode(value, { stream: true })
      let nl = buffer.indexOf('\n')
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim()
        buffer = buffer.slice(nl + 1)
        nl = buffer.indexOf('\n')
        if (!line) continue
        const ev = JSON.parse(line) as { type?: string; object?: unknown }
        if (ev.type === 'ERROR') throw new Error(`watch error event: ${line}`)
        const rv = resourceVersionOf(ev.object)
        if (rv && !arrivals.has(rv)) arrivals.set(rv, { at, type: ev.type ?? '' })
      }
    }
  } catch (e) {
    if ((e as { name?: unknown } | undefined)?.name === 'AbortError') return
    throw e
  }
}

function write(hub: HubClient, opts: WatchOptions, i: number): Promise<unknown> {
  const name = `w-${Math.floor(i / 3)}`
  const path = configMapPath(opts.namespace, name)
  if (i % 3 === 0)
    return hub.call('POST', configMapPath(opts.namespace), {
      body: configMap(opts.namespace, name, opts.itemBytes, i),
      expect: 201,
    })
  if (i % 3 === 1)
    return hub.call('PATCH', path, {
      body: { data: { step: String(i) } },
      contentType: 'application/merge-patch+json',
    })
  return hub.call('DELETE', path)
}

/** Opens a watch, makes the changes and returns the delivery latency (phase 4). */
export async function measureWatchLatency(
  hub: HubClient,
  opts: WatchOptions,
  progress: (message: string) => void
): Promise<WatchLatency> {
  await createNamespace(hub, opts.namespace)
  const startRv = resourceVersionOf(await hub.call('GET', configMapPath(opts.namespace)))
  const budgetMs = opts.changes * (opts.intervalMs + 50) + opts.settleMs + 10_000
  const abort = new AbortController()
  const query = {
    watch: 'true',
    resourceVersion: startRv,
    timeoutSeconds: String(Math.ceil(budgetMs / 1000)),
  }
  const remote = createRemote({ baseUrl: hub.baseUrl, token: hub.token })
  const res = await remote.send(configMapPath(opts.namespace), { query, signal: abort.signal })
  if (res.status !== 200 || !res.body) throw new Error(`watch answered ${res.status}`)
  const arrivals = new Map<string, Arrival>()
  let failed = false
  const reading = readEvents(res.body, arrivals)
  reading.catch(() => {
    failed = true
  })
  progress(
    `watch (settle ${opts.settleMs} ms): ${opts.changes} changes every ${opts.intervalMs} ms`
  )
  const writes: { rv: string; at: number; type: string }[] = []
  const types = ['ADDED', 'MODIFIED', 'DELETED']
  const start = performance.now()
  for (let i = 0; i < opts.changes && !failed; i++) {
    const wait = start + i * opts.intervalMs - performance.now()
    if (wait > 0) await sleep(wait)
    const body = await write(hub, opts, i)
    writes.push({ rv: resourceVersionOf(body), at: performance.now(), type: types[i % 3]! })
  }
  const deadline = performance.now() + opts.settleMs + 5_000
  while (!failed && performance.now() < deadline && writes.some((w) => !arrivals.has(w.rv)))
    await sleep(10)
  abort.abort()
  await reading
  const all: number[] = []
  const perType: Record<string, number[]> = {}
  for (const w of writes) {
    const arrival = arrivals.get(w.rv)
    if (!arrival) continue
    all.push(arrival.at - w.at)
    const list = perType[w.type] ?? []
    list.push(arrival.at - w.at)
    perType[w.type] = list
  }
  const byType: Record<string, Summary> = {}
  for (const [type, samples] of Object.entries(perType)) byType[type] = summarize(samples)
  return {
    settleMs: opts.settleMs,
    changes: opts.changes,
    delivered: all.length,
    missing: writes.length - all.length,
    latencyMs: summarize(all),
    byType,
  }
}
