/**
 * The manifest writes of one translate batch, committed together: each mailbox's run hands its
 * write here and waits for its own outcome, and the writes waiting are sent as one
 * `writeManifests` (lib/store/projection-manifest-write.ts: one counter request, one read of the
 * changed copies' states and one round of log items for all of them; one conditional PutItem per
 * changed mailbox remains). Group commit, as databases do it, sized by the runs in flight: the
 * batch tells when a run starts and ends (`started` / `ended`), and the writes waiting go out
 * together (up to `max`) once every run in flight is waiting on its write or done, so a wave of
 * runs planned together commits as one group and its shared requests are paid once per wave, not
 * once per few mailboxes. A group waits for a run still planning only while writes keep arriving:
 * `lingerMs` without a new write (a run stalled on a slow read) sends it, and without started runs
 * (a caller that does not tell) a write goes out at once.
 * Writes that arrive while a group is being written wait for it. Each write keeps its own
 * precondition and its own outcome: a Conflict fails that run only. A run that planned on a read
 * and writes nothing may `confirm` the version it read in the same group (the versions of a
 * group's confirmations in one small read per 100): a version that moved fails it with Conflict,
 * as its write would have. A run that waits on another run's outcome sets itself `aside` meanwhile,
 * so the group does not wait for it. With a `bell`, each group rings the mailboxes it wrote
 * (lib/edge/manifest-rings.ts) before their runs hear their outcomes: one ring per group, which
 * answers the edges' held polls (functions/edge-api/desired-hold.ts).
 */
import {
  chargeScopes,
  measuredApart,
  measuringScopes,
  type Scope,
} from '../../lib/budget/frames.ts'
import type { Bell } from '../../lib/edge/bell.ts'
import { manifestRings } from '../../lib/edge/manifest-rings.ts'
import { conflict } from '../../lib/errors.ts'
import type {
  ManifestWrite,
  ManifestWriteResult,
  ProjectionStore,
} from '../../lib/store/projection-types.ts'

export type ManifestCommits = {
  /** Commits one mailbox's write with the others waiting; resolves or fails with its outcome. */
  write(mailbox: string, w: ManifestWrite): Promise<ManifestWriteResult>
  /** Confirms with the group that the manifest is still at `version`; Conflict when it moved. */
  confirm(mailbox: string, version: number): Promise<void>
  /** Awaits `p` as a run that hands nothing to the group meanwhile. */
  aside<T>(p: Promise<T>): Promise<T>
  /** A run that may write has started. */
  started(): void
  /** A run has ended (written or not). */
  ended(): void
}

/** Writes per group at most (two log BatchWriteItems of 25 for one group/resource each). */
export const COMMIT_MAX = 96
/** Groups being written at once. */
export const COMMITS_IN_FLIGHT = 1
/** How long a group waits for runs still planning after the last write arrived, ms. */
export const LINGER_MS = 25

type Waiting = {
  mailbox: string
  /** The write, or the version a run that writes nothing confirms. */
  w: ManifestWrite | { confirm: number }
  /** The scopes measuring the run that wrote (lib/budget/frames.ts), charged its share. */
  scopes: readonly Scope[]
  resolve: (r: ManifestWriteResult | undefined) => void
  reject: (e: unknown) => void
}

const isWrite = (g: Waiting): g is Waiting & { w: ManifestWrite } => !('confirm' in g.w)
const isConfirm = (g: Waiting): g is Waiting & { w: { confirm: number } } => 'confirm' in g.w

export function manifestCommits(
  projections: Pick<ProjectionStore, 'writeManifests' | 'getManifestVersions'>,
  opts: { max?: number; inFlight?: number; lingerMs?: number; bell?: Pick<Bell, 'ring'> } = {}
): ManifestCommits {
  const max = opts.max ?? COMMIT_MAX
  const inFlight = opts.inFlight ?? COMMITS_IN_FLIGHT
  const lingerMs = opts.lingerMs ?? LINGER_MS
  let waiting: Waiting[] = []
  let sending = 0
  let active = 0
  let lingering: ReturnType<typeof setTimeout> | undefined
  let lingered = false

  const send = async (group: Waiting[]) => {
    try {
      // The group's requests are the group's: each run is charged an equal share, not the run
      // that happened to send it (the batch's pacer reads what a run costs from its share).
      const writes = group.filter(isWrite)
      const confirms = group.filter(isConfirm)
      const { value, used } = await measuredApart(async () => {
        const requests = writes.map(({ mailbox, w }) => ({ mailbox, w }))
        const both = await Promise.all([
          writes.length > 0 ? projections.writeManifests(requests) : [],
          confirms.length > 0
            ? projections.getManifestVersions(confirms.map((c) => c.mailbox))
            : new Map<string, number>(),
        ])
        const rings = opts.bell ? manifestRings(requests, both[0]) : new Map()
        if (rings.size > 0) await opts.bell?.ring(rings)
        return both
      })
      const [outcomes, versions] = value
      for (const g of group) chargeScopes(g.scopes, used / group.length)
      writes.forEach((g, i) => {
        const o = outcomes[i]
        if (o?.ok) g.resolve(o.result)
        else g.reject(o ? o.error : new Error('no outcome for a manifest write'))
      })
      for (const c of confirms) {
        const read = c.w.confirm
        const stored = versions.get(c.mailbox)
        if (stored === read) c.resolve(undefined)
        else {
          const why = `the manifest changed since version ${read}`
          c.reject(conflict('manifests', { name: c.mailbox }, why))
        }
      }
    } catch (e) {
      for (const g of group) g.reject(e)
    }
  }
  // Every run in flight has handed its write (or the group is full, or waited long enough).
  const ready = () => waiting.length >= Math.min(max, active) || lingered
  // The linger restarts whenever a write arrives: it waits for a run that stalls, not for a wave
  // whose runs are still handing their writes in.
  const pump = (progress = false) => {
    if (progress && lingering) {
      clearTimeout(lingering)
      lingering = undefined
    }
    if (waiting.length > 0 && sending < inFlight && !ready() && !lingering) {
      lingering = setTimeout(() => {
        lingered = true
        pump()
      }, lingerMs)
    }
    while (sending < inFlight && waiting.length > 0 && ready()) {
      clearTimeout(lingering)
      lingering = undefined
      lingered = false
      const group = waiting.slice(0, max)
      waiting = waiting.slice(max)
      sending++
      void send(group).finally(() => {
        sending--
        pump()
      })
    }
  }
  const join = (mailbox: string, w: Waiting['w']) =>
    new Promise<ManifestWriteResult | undefined>((resolve, reject) => {
      waiting.push({ mailbox, w, scopes: measuringScopes(), resolve, reject })
      pump(true)
    })
  return {
    write: (mailbox, w) => join(mailbox, w) as Promise<ManifestWriteResult>,
    async confirm(mailbox, version) {
      await join(mailbox, { confirm: version })
    },
    async aside(p) {
      active = Math.max(0, active - 1)
      pump()
      try {
        return await p
      } finally {
        active++
      }
    },
    started() {
      active++
    },
    ended() {
      active = Math.max(0, active - 1)
      pump()
    },
  }
}
