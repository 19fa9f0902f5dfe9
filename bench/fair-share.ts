/**
 * The fair-share phase (issue 35): one user token ("noisy") asks for `watches` watches of one
 * namespace's ConfigMaps and keeps `writers` writers updating ConfigMaps there, while another user
 * token ("quiet") gets one ConfigMap at a time; the quiet token's request latency p50/p90 is taken
 * first alone, then under the noise, and printed against the target (p90 under 200 ms). It also
 * counts how many of the noisy watches and writes the hub admitted and how many it answered 429
 * (functions/api/fair-share.ts). It runs against any hub: the one in this process (with the
 * per-token limits of a Worker isolate) and npm start's (fair-share-npm-start.ts), where the
 * requests take the users' path through the https front and wrangler dev; the tokens come from
 * `issue` (a Token of the API, or a record written to the store). Figures, never a pass or fail.
 */
import { createRemote } from '../lib/remote/remote-client.ts'
import { configMapPath, createHubClient, type HubClient } from './hub-client.ts'
import { createNamespace } from './hub-crud.ts'
import { configMap } from './payload.ts'
import { type Summary, summarize } from './stats.ts'

export const FAIR_SHARE_TARGET_P90_MS = 200

export type FairShareResults = {
  watchesAsked: number
  watchesOpen: number
  watchesRefused: number
  writes: number
  writesRefused: number
  /** The quiet token's GET latency alone and under the noise (ms). */
  alone: Summary
  loaded: Summary
  targetP90Ms: number
}

export type FairShareOptions = {
  watches: number
  writers: number
  /** How long the quiet token is timed under the noise. */
  durationMs: number
  itemBytes: number
}

const NAMESPACE = 'bench-fair-share'

/** The hub the phase runs against: its URL (and CA), an admin client and a way to get user tokens. */
export type FairShareHub = {
  hubUrl: string
  ca?: string
  admin: HubClient
  /** A user token named `name` that reaches the root space. */
  issue(name: string): Promise<string>
}

async function timeGets(quiet: HubClient, until: () => boolean, min: number): Promise<number[]> {
  const out: number[] = []
  while (out.length < min || !until()) {
    const t = performance.now()
    await quiet.call('GET', configMapPath(NAMESPACE, 'quiet'))
    out.push(performance.now() - t)
    await new Promise((r) => setTimeout(r, 20))
  }
  return out
}

/** Opens `n` watches as the noisy token, 50 at a time; those admitted stay open until `signal`. */
async function openWatches(hub: FairShareHub, token: string, n: number, signal: AbortSignal) {
  const remote = createRemote({ baseUrl: hub.hubUrl, token, ...(hub.ca ? { ca: hub.ca } : {}) })
  let open = 0
  let refused = 0
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, async () => {
      const res = await remote.send(`${configMapPath(NAMESPACE)}?watch=true`, { signal })
      if (res.status === 429) {
        refused++
        await res.body?.cancel()
      } else if (res.status === 200) {
        open++
        // Read the stream as a client would, so the hub's writes to it are not held back.
        void res.body?.pipeTo(new WritableStream(), { signal }).catch(() => undefined)
      } else throw new Error(`a noisy watch answered ${res.status}`)
    })
    await Promise.all(batch)
  }
  return { open, refused }
}

export async function runFairShare(
  stack: FairShareHub,
  o: FairShareOptions,
  progress: (message: string) => void
): Promise<FairShareResults> {
  const noisyToken = await stack.issue('bench-noisy')
  const quietToken = await stack.issue('bench-quiet')
  await createNamespace(stack.admin, NAMESPACE)
  const admin = stack.admin
  for (const name of ['quiet', ...Array.from({ length: 8 }, (_, i) => `noisy-${i}`)])
    await admin.call('POST', configMapPath(NAMESPACE), {
      body: configMap(NAMESPACE, name, o.itemBytes),
      expect: 201,
    })
  const quiet = createHubClient(stack.hubUrl, quietToken, stack.ca)
  progress('fair share: the quiet token alone')
  const aloneUntil = performance.now() + Math.min(o.durationMs, 3000)
  const alone = await timeGets(quiet, () => performance.now() > aloneUntil, 20)

  progress(`fair share: the noisy token asks for ${o.watches} watches`)
  const stop = new AbortController()
  const watches = await openWatches(stack, noisyToken, o.watches, stop.signal)
  const noisy = createRemote({
    baseUrl: stack.hubUrl,
    token: noisyToken,
    ...(stack.ca ? { ca: stack.ca } : {}),
  })
  let writing = true
  let writes = 0
  let writesRefused = 0
  const writers = Array.from({ length: o.writers }, async (_, w) => {
    for (let i = 0; writing; i++) {
      const name = `noisy-${w % 8}`
      const res = await noisy.send(configMapPath(NAMESPACE, name), {
        method: 'PATCH',
        body: { data: { step: `${w}-${i}` } },
        contentType: 'application/merge-patch+json',
      })
      await res.body?.cancel()
      if (res.status === 429) {
        writesRefused++
        await new Promise((r) => setTimeout(r, 50))
      } else if (res.status === 200) writes++
      else throw new Error(`a noisy write answered ${res.status}`)
    }
  })
  progress(`fair share: ${watches.open} watches open; timing the quiet token under the noise`)
  const loadedUntil = performance.now() + o.durationMs
  try {
    const loaded = await timeGets(quiet, () => performance.now() > loadedUntil, 20)
    return {
      watchesAsked: o.watches,
      watchesOpen: watches.open,
      watchesRefused: watches.refused,
      writes,
      writesRefused,
      alone: summarize(alone),
      loaded: summarize(loaded),
      targetP90Ms: FAIR_SHARE_TARGET_P90_MS,
    }
  } finally {
    writing = false
    await Promise.allSettled(writers)
    stop.abort()
  }
}
