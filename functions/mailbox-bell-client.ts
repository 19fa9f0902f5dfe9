/**
 * The Worker's side of the bell (lib/edge/bell.ts) over its Durable Objects (mailbox-bell.ts,
 * bound as MAILBOX_BELL), one per shard (lib/edge/bell-shards.ts). `ring` sends one request per
 * shard the rung keys fall on (every shard for a shared manifest's key); `wait` is one request to the key's shard, answered when it is rung
 * or at the hold's end, so a held poll spends one subrequest however long it waits (and no CPU
 * meanwhile). Both go through the invocation's subrequest gate (lib/budget/subrequest.ts). A ring
 * that fails is logged and dropped (the polls it would have answered answer at their hold's end);
 * a wait that fails is `failed` (the route answers as a plain poll).
 */
import { z } from 'zod'
import { subrequest } from '../lib/budget/subrequest.ts'
import type { Bell, BellOutcome } from '../lib/edge/bell.ts'
import { BELL_SHARDS, bellShard, byShard } from '../lib/edge/bell-shards.ts'
import type { Logger } from '../lib/log.ts'

/** What a shard is asked through (a DurableObjectNamespace's `get(idFromName(...))`). */
export type BellStubs = { fetchShard(shard: number, req: Request): Promise<Response> }

const AnswerSchema = z.object({ outcome: z.enum(['rung', 'timeout', 'unknown']) })

/** The shards of a Durable Object namespace, by name `bell-<shard>`. */
export function namespaceStubs(ns: DurableObjectNamespace): BellStubs {
  return {
    fetchShard: (shard, req) => ns.get(ns.idFromName(`bell-${shard}`)).fetch(req),
  }
}

async function send(stubs: BellStubs, shard: number, req: Request, op: string) {
  return subrequest(op, async () => {
    const res = await stubs.fetchShard(shard, req)
    const text = await res.text()
    if (!res.ok) throw new Error(`the bell's shard ${shard} answered ${res.status}: ${text}`)
    return text
  })
}

export function durableBell(stubs: BellStubs, log: Logger, shards = BELL_SHARDS): Bell {
  return {
    async ring(versions) {
      const groups = [...byShard(versions, shards)]
      await Promise.all(
        groups.map(async ([shard, group]) => {
          const body = JSON.stringify({ versions: [...group] })
          const req = new Request('https://bell/ring', { method: 'POST', body })
          try {
            await send(stubs, shard, req, 'bell-ring')
          } catch (err) {
            log.warn('held polls not rung: they answer at the end of their hold', { shard, err })
          }
        })
      )
    },
    async wait(key, since, opts): Promise<BellOutcome> {
      const shard = bellShard(key, shards)
      const q = new URLSearchParams({
        key,
        since: String(since),
        timeoutMs: String(opts.timeoutMs),
      })
      for (const k of opts.also ?? []) q.append('also', k)
      try {
        const text = await send(stubs, shard, new Request(`https://bell/wait?${q}`), 'bell-wait')
        return AnswerSchema.parse(JSON.parse(text)).outcome
      } catch (err) {
        log.warn('a held poll could not wait on the bell: answered as a plain poll', { shard, err })
        return 'failed'
      }
    },
  }
}
