/**
 * The Worker-limits phase's watches (bench/limits.ts): `watchWhileWriting` opens a watch over
 * HTTP, keeps writing a ConfigMap every `everyMs` until the stream ends (the hub ends it: at
 * `timeoutSeconds`, or before its budget) or `maxMs` passes, and reports how it ended.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import type { HubClient } from './hub-client.ts'
import { configMap } from './payload.ts'

export type WatchEnd = {
  events: number
  /** The type of the last event (a BOOKMARK when the hub ended the watch for its budget). */
  last: string | undefined
  /** True when the hub closed the stream (rather than the bench giving up). */
  endedByHub: boolean
  wallMs: number
}

/** Where to watch and write: `<prefix>-0` .. `<prefix>-4` are created, then updated in turn. */
export type WatchTarget = { space: string; namespace: string; prefix: string; itemBytes: number }

const cmPath = (t: WatchTarget) =>
  `/clusters/${t.space}/api/v1/namespaces/${t.namespace}/configmaps`

export async function watchWhileWriting(
  hub: HubClient,
  t: WatchTarget,
  opts: { query: string; everyMs: number; maxMs: number }
): Promise<WatchEnd> {
  const started = performance.now()
  const ctrl = new AbortController()
  const remote = createRemote({ baseUrl: hub.baseUrl, token: hub.token })
  const res = await remote.send(`${cmPath(t)}?watch=true&${opts.query}`, { signal: ctrl.signal })
  if (res.status !== 200 || !res.body) throw new Error(`watch answered ${res.status}`)
  let writing = true
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const body = configMap(t.namespace, `${t.prefix}-${i % 5}`, t.itemBytes, i)
      if (i < 5) await hub.call('POST', cmPath(t), { body, expect: 201 })
      else await hub.call('PUT', `${cmPath(t)}/${body.metadata.name}`, { body, expect: 200 })
      await new Promise((r) => setTimeout(r, opts.everyMs))
    }
  })()
  const giveUp = setTimeout(() => ctrl.abort(), opts.maxMs)
  const lines: string[] = []
  let endedByHub = true
  try {
    const text = await res.text()
    lines.push(...text.split('\n').filter((l) => l.trim() !== ''))
  } catch {
    endedByHub = false
  } finally {
    clearTimeout(giveUp)
    writing = false
    await writer
  }
  const last = lines.length > 0 ? (JSON.parse(lines[lines.length - 1]!) as { type?: string }) : {}
  return { events: lines.length, last: last.type, endedByHub, wallMs: performance.now() - started }
}
