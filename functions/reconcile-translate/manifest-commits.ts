/**
 * The manifest writes of one translate batch, committed together: each mailbox's run hands its
 * write here and waits for its own outcome, and the writes waiting are sent as one
 * `writeManifests` (lib/store/projection-manifest-write.ts: one counter request, one read of the
 * changed copies' states and one round of log items for all of them; one conditional PutItem per
 * changed mailbox remains). Group commit, as databases do it: a write that finds no group being
 * written goes out at once, alone; writes that arrive while a group is being written wait and go
 * out together (up to `max`) as soon as it is done. So a lone run never waits for a timer, and the
 * busier the batch, the larger its groups. Each write keeps its own precondition and its own
 * outcome: a Conflict fails that run only.
 */
import type {
  ManifestWrite,
  ManifestWriteResult,
  ProjectionStore,
} from '../../lib/store/projection-types.ts'

export type ManifestCommits = {
  /** Commits one mailbox's write with the others waiting; resolves or fails with its outcome. */
  write(mailbox: string, w: ManifestWrite): Promise<ManifestWriteResult>
}

/** Writes per group at most: one log BatchWriteItem holds 25 items. */
export const COMMIT_MAX = 25
/** Groups being written at once. */
export const COMMITS_IN_FLIGHT = 1

type Waiting = {
  mailbox: string
  w: ManifestWrite
  resolve: (r: ManifestWriteResult) => void
  reject: (e: unknown) => void
}

export function manifestCommits(
  projections: Pick<ProjectionStore, 'writeManifests'>,
  opts: { max?: number; inFlight?: number } = {}
): ManifestCommits {
  const max = opts.max ?? COMMIT_MAX
  const inFlight = opts.inFlight ?? COMMITS_IN_FLIGHT
  let waiting: Waiting[] = []
  let sending = 0

  const send = async (group: Waiting[]) => {
    try {
      const outcomes = await projections.writeManifests(
        group.map(({ mailbox, w }) => ({ mailbox, w }))
      )
      group.forEach((g, i) => {
        const o = outcomes[i]
        if (o?.ok) g.resolve(o.result)
        else g.reject(o ? o.error : new Error('no outcome for a manifest write'))
      })
    } catch (e) {
      for (const g of group) g.reject(e)
    }
  }
  const pump = () => {
    while (sending < inFlight && waiting.length > 0) {
      const group = waiting.slice(0, max)
      waiting = waiting.slice(max)
      sending++
      void send(group).finally(() => {
        sending--
        pump()
      })
    }
  }
  return {
    write(mailbox, w) {
      return new Promise<ManifestWriteResult>((resolve, reject) => {
        waiting.push({ mailbox, w, resolve, reject })
        pump()
      })
    },
  }
}
