/**
 * The poll targets of a bench stack's fleet: every mailbox of root:espw with its edge credential
 * (issued straight into the key-value store) and its current desired-state ETag, for the idle
 * fleet (scale-idle.ts). `withFreshEtags` reads the ETags again after the mailboxes' content moved,
 * so polls stay 304s. Not timed.
 */
import { issueEdgeCredential } from '../lib/edge/credentials.ts'
import { currentEtag, type PollTarget } from './edge-poll.ts'
import { createHubClient } from './hub-client.ts'
import { runLoad } from './load.ts'
import { BENCH_TOKEN, type BenchStack } from './stack.ts'

type Progress = (message: string) => void

/** Edge credentials and current ETags of every mailbox of the stack. */
export async function fleetTargets(stack: BenchStack, progress: Progress): Promise<PollTarget[]> {
  const hub = createHubClient(stack.hub.url, BENCH_TOKEN)
  const list = (await hub.call(
    'GET',
    '/clusters/root:espw/apis/tenancy.kcp.io/v1alpha1/workspaces'
  )) as {
    items?: { metadata?: { name?: string } }[]
  }
  const names = (list.items ?? []).map((w) => w.metadata?.name ?? '').filter(Boolean)
  progress(`idle fleet: credentials and versions of ${names.length} mailboxes (not timed)`)
  const targets: PollTarget[] = new Array(names.length)
  await runLoad({ count: names.length, concurrency: 16 }, async (i) => {
    const mailbox = names[i]!
    const { token } = await issueEdgeCredential(stack.hub.deps.kv, mailbox)
    targets[i] = { mailbox, token, etag: await currentEtag(stack.hub.url, mailbox, token) }
  })
  return targets
}

/** The same targets with each mailbox's ETag read again. */
export async function withFreshEtags(
  stack: BenchStack,
  targets: readonly PollTarget[]
): Promise<PollTarget[]> {
  const out: PollTarget[] = new Array(targets.length)
  await runLoad({ count: targets.length, concurrency: 16 }, async (i) => {
    const t = targets[i]!
    out[i] = { ...t, etag: await currentEtag(stack.hub.url, t.mailbox, t.token) }
  })
  return out
}
