/**
 * Held desired-state polls: `GET /edge/v1/mailboxes/<mailbox>/desired` with `If-None-Match` and
 * `Prefer: wait=N` (RFC 7240; lib/edge/prefer-wait.ts). When this process holds polls
 * (`HubDeps.edgeHold`, its longest hold above 0) the answer names the hold granted,
 * `Preference-Applied: wait=M` with M = min(N, the longest), whether or not it had to wait: a poll
 * whose version is not the current one is answered at once (desired.ts), as are polls without the
 * header, which are exactly what they were. One naming the current version (a 304 of desired.ts)
 * waits on the bell (lib/edge/bell.ts) for that mailbox space to be rung above its version:
 * - rung, or `unknown` (a bell that just started): the desired state is read again, not from the
 *   version remembered for idle polls (the bell may come before the `manifests` epoch moves), and
 *   answered — 200 with the new state, or 304 when it has not moved after all;
 *   (through the process's wake gate, lib/edge/wake-gate.ts: a change that rings a whole fleet's
 *   polls at once has them answer a few at a time);
 * - the hold's end (or the client gone, before or after the bell): 304, nothing read;
 * A mailbox that shares a shared manifest (as last read, desired-versions.ts `knownShare`) also
 * waits on that manifest's key: a member's version moves when any member's run writes it.
 * - `failed` (the bell could not be asked): the 304 without `Preference-Applied`, as a center that
 *   does not hold, so the agent polls on its interval for a while rather than at once again.
 * While it waits the request reads and writes nothing and spends no CPU: in the Worker the bell is
 * one Durable Object fetch (functions/mailbox-bell-client.ts), the request's only subrequest
 * beyond those of the plain poll. Nor does it count then among the edge requests in work of the
 * storm control (admission.ts: its ticket is parked), nor while it waits its turn at the wake gate:
 * only before the hold and while it builds its answer, never shed after. The gate bounds the
 * herd's work; counting its queue too would shed every heartbeat while a fleet-wide ring drains.
 */
import type { Context } from 'hono'
import { sharedBellKey } from '../../lib/edge/bell.ts'
import { appliedWait, parsePreferWait } from '../../lib/edge/prefer-wait.ts'
import type { ApiEnv } from '../api/api-env.ts'
import { handleDesired } from './desired.ts'
import { mailboxSpace } from './desired-space.ts'
import { knownShare } from './desired-versions.ts'

/** The hold granted to a poll that asks `asked` seconds of a process holding `max` (s) at most. */
export function grantedHold(
  asked: number | undefined,
  max: number | undefined
): number | undefined {
  if (asked === undefined || max === undefined || max <= 0) return undefined
  return Math.min(asked, max)
}

const withApplied = (res: Response, seconds: number) => {
  res.headers.set('Preference-Applied', appliedWait(seconds))
  return res
}

const etagVersion = (etag: string | null) => Number(/^"(\d+)"$/.exec(etag ?? '')?.[1] ?? 0)

export async function handleDesiredHeld(c: Context<ApiEnv>): Promise<Response> {
  const deps = c.get('deps')
  const hold = deps.edgeHold
  const seconds = grantedHold(parsePreferWait(c.req.header('prefer')), hold?.maxSeconds)
  if (!hold || seconds === undefined) return handleDesired(c)
  const first = await handleDesired(c)
  if (first.status !== 304 || seconds === 0) return withApplied(first, seconds)
  // Resolved by the read above, so cached: the key the translate step rings.
  const { space } = await mailboxSpace(deps.kv, c.req.param('mailbox') ?? '')
  const shared = knownShare(deps.kv, space.id)
  // Parked on the bell the poll spends nothing: it leaves the storm control's count meanwhile.
  const ticket = c.get('admission')
  ticket?.park()
  const outcome = await hold.bell.wait(space.id, etagVersion(first.headers.get('etag')), {
    timeoutMs: seconds * 1000,
    signal: c.req.raw.signal,
    ...(shared ? { also: [sharedBellKey(shared)] } : {}),
  })
  if (outcome === 'failed') return first
  if (outcome === 'timeout') return withApplied(first, seconds)
  // A change rings many polls at once: they answer through the gate, a few at a time, and count
  // among the requests in work only once the gate lets them build their answer; one whose client
  // left while it waited builds nothing (a herd must not spend its answers on closed connections).
  const answer = () => {
    if (c.req.raw.signal.aborted) return Promise.resolve(first)
    ticket?.resume()
    return handleDesired(c, { fresh: true })
  }
  return withApplied(await (hold.wakes ? hold.wakes.run(answer) : answer()), seconds)
}
