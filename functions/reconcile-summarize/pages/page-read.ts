/**
 * Reading one page of a plan (plan.ts) into its facts (page-facts.ts), every read batched across
 * the page's mailboxes, in this order: the mailboxes' space records (one read per 100: a mailbox
 * is read only while its space is Ready, as reads.ts does), their report marks (one per 50, before
 * the states, so a state written after the read moves the mark after it was recorded:
 * lib/store/projection-marks.ts), their manifests (one per 100, and their shared manifests), the
 * states of the copies asked for that they hold (one per 100 copies in all), then the upsync lists
 * of the destinations that want them (upsync-summary.ts, through `upsync`). The epochs are the
 * caller's, read before all of it. A failed read fails the page: nothing is kept of it.
 */
import { getSpacesByPath, type Space } from '../../../lib/hub/spaces.ts'
import { mailboxSpacePath } from '../../../lib/reconcile/keys.ts'
import { entryKey } from '../../../lib/store/projection-diff.ts'
import {
  type CopyKey,
  contentVersion,
  type MailboxMark,
  type Manifest,
  type ProjectionStore,
  type StoredCopyState,
} from '../../../lib/store/projection-types.ts'
import type { KvStore } from '../../../lib/store/types.ts'
import type { MailboxView } from '../reads.ts'
import { heldCopies, type PageFacts, pageFacts, type Upsync } from './page-facts.ts'
import type { ObservationPlan, PagePlan } from './plan.ts'

export type PageReadDeps = {
  kv: KvStore
  projections: Pick<ProjectionStore, 'getManifests' | 'getMailboxMarks' | 'getCopyStatesOf'>
  now: () => Date
  /** The page's part of the upsync summary, for the mailboxes asked for it, from their views. */
  upsync?(mailboxes: readonly string[], views: ReadonlyMap<string, MailboxView>): Promise<Upsync>
}

/** The Ready spaces of `mailboxes`, by mailbox (one read per 100). */
export async function readySpaces(
  kv: KvStore,
  mailboxes: readonly string[]
): Promise<Map<string, Space>> {
  const found = await getSpacesByPath(kv, mailboxes.map(mailboxSpacePath))
  const out = new Map<string, Space>()
  for (const mb of mailboxes) {
    const space = found.get(mailboxSpacePath(mb))
    if (space?.phase === 'Ready') out.set(mb, space)
  }
  return out
}

export async function readPage(
  deps: PageReadDeps,
  plan: Pick<ObservationPlan, 'spaceId' | 'keys'>,
  page: PagePlan,
  at: { epochs: PageFacts['epochs']; again?: boolean }
): Promise<PageFacts> {
  const readAt = deps.now().getTime()
  const names = page.asks.map((a) => a.mailbox)
  const spaces = await readySpaces(deps.kv, names)
  const ids = [...spaces.values()].map((s) => s.id)
  const none = <T>() => Promise.resolve(new Map<string, T>())
  const marks = await (ids.length > 0 ? deps.projections.getMailboxMarks(ids) : none<MailboxMark>())
  const manifests = await (ids.length > 0 ? deps.projections.getManifests(ids) : none<Manifest>())
  const views = page.asks.map((a): MailboxView | undefined => {
    const space = spaces.get(a.mailbox)
    if (!space) return undefined
    const manifest = manifests.get(space.id)
    const entries = new Map((manifest?.entries ?? []).map((e) => [entryKey(e), e]))
    return { space, version: manifest ? contentVersion(manifest) : 0, entries }
  })
  const wants = page.asks.flatMap((a, i) => {
    const view = views[i]
    const keys = heldCopies(a, view, plan.spaceId).flatMap(({ key }) => {
      const k = plan.keys.get(key)
      return k ? [k] : []
    })
    return view && keys.length > 0 ? [{ mailbox: view.space.id, keys: keys as CopyKey[] }] : []
  })
  const states = await (wants.length > 0
    ? deps.projections.getCopyStatesOf(wants)
    : none<Map<string, StoredCopyState>>())
  const upsyncing = page.asks.filter((a) => a.upsync).map((a) => a.mailbox)
  let upsync: Upsync | undefined
  if (deps.upsync && upsyncing.length > 0) {
    const byName = new Map<string, MailboxView>()
    views.forEach((v, i) => {
      const name = names[i]
      if (v && name) byName.set(name, v)
    })
    upsync = await deps.upsync(upsyncing, byName)
  }
  return pageFacts({
    ask: page.ask,
    readAt,
    ...(at.again ? { again: true } : {}),
    epochs: at.epochs,
    spaceId: plan.spaceId,
    asks: page.asks,
    views,
    reports: views.map((v) => (v ? marks.get(v.space.id)?.reports : undefined)),
    states,
    ...(upsync ? { upsync } : {}),
  })
}
