/**
 * The content half of a translate run (reconcile.ts): from one read of the mailbox, its previous
 * copies (bodies from the store's cache), its customizer, the API versions chosen with the
 * version-choice memory, when the sources of its merges were last updated (authored-order.ts, read
 * only for identities more than one space sends), and the desired content, shared by the batch's
 * mailboxes with the same inputs (shared-content.ts); for a member that holds all its copies through one shared manifest
 * and keeps the same copies, the key under which the batch settles that content.
 */
import type { Builtins } from '../../lib/apis/builtins.ts'
import type { ProjectionStore } from '../../lib/store/projection-types.ts'
import type { KvStore } from '../../lib/store/types.ts'
import type { AuthoredOrder, AuthoredSource } from './authored-order.ts'
import { desiredContent, type PlacementSelection } from './desired.ts'
import { type DestinationSession, destinationCustomizer } from './destination-inputs.ts'
import type { MailboxRead } from './mailbox-reads.ts'
import type { parseMailboxName } from './names.ts'
import { type Gathered, gather } from './overlap.ts'
import { priorCopies, sameCopies } from './prior-copies.ts'
import {
  type ContentMemo,
  contentKeyOf,
  pureShare,
  settledKey,
  shareKey,
} from './shared-content.ts'
import { chooseVersions, manifestVersions } from './version-memory.ts'

type ContentDeps = {
  projections: Pick<ProjectionStore, 'getBodies'>
  builtins: Builtins
  kv: KvStore
}
type ContentSession = Omit<DestinationSession, 'overlaps'> & {
  contents: ContentMemo
  authored: AuthoredOrder
}

/** The contributions to identities more than one space sends: the only ones a merge orders. */
const merging = (gathered: Gathered): AuthoredSource[] =>
  [...gathered.byKey]
    .filter(([, list]) => list.length > 1)
    .flatMap(([key, list]) =>
      list.map((c) => ({ spaceId: c.spaceId, key, object: c.source.object }))
    )

export type Destination = NonNullable<ReturnType<typeof parseMailboxName>>

/**
 * What one read of the mailbox leads to: its previous copies, the versions chosen, the desired
 * content (shared by the batch's mailboxes with the same inputs) and, for a member holding all
 * its copies through one shared manifest, the key under which the batch settles that content.
 */
export async function planContent(
  deps: ContentDeps,
  session: ContentSession,
  inputs: { dest: Destination; chosen: PlacementSelection[]; mailboxId: string },
  read: Pick<MailboxRead, 'manifest' | 'memory'>
) {
  const { dest, chosen, mailboxId } = inputs
  const current = read.manifest
  const { bodies, previous, copies } = await priorCopies(deps.projections, current?.entries)
  const customize = await destinationCustomizer(session, chosen, dest.inventorySpaceId)
  const gathered = gather(chosen)
  const candidates = new Map([...gathered.groups].map(([g, c]) => [g, c.candidates] as const))
  const choice = await chooseVersions(deps.kv, mailboxId, candidates, {
    seen: manifestVersions(current),
    read: async () => read.memory,
  })
  const versions = choice.versions
  const sources = merging(gathered)
  const authored = sources.length > 0 ? await session.authored.of(sources) : undefined
  const compute = () =>
    desiredContent(chosen, previous, deps.builtins, {
      customize,
      choice: { gathered, versions },
      ...(authored ? { authored } : {}),
    })
  // Without customization, mailboxes with the same inputs share one content (shared-content.ts).
  const content = customize ? undefined : contentKeyOf(shareKey(chosen, versions), copies)
  const { entries, conflicts, madeOf } =
    content === undefined ? compute() : session.contents.get(content, compute)
  const share = content === undefined ? undefined : pureShare(current)
  // Only a member that stays in its shared manifest (the same copies, live) can find it settled.
  const stays = share !== undefined && sameCopies(current?.entries ?? [], entries)
  const settled = stays ? settledKey(share, content as string) : undefined
  return {
    ...{ current, bodies, customize, choice, versions, entries, conflicts, madeOf },
    ...{ share, settled },
  }
}
