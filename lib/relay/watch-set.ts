/**
 * The relay's running watches, made to follow a desired set. The core watches always run; the
 * other cross-space watches (every resource a placement can select) and the per-space CRD watches
 * matter only to the translate step, whose keys exist only for spaces holding slices, so they run
 * only while some space holds a slice with a destination, and a CRD's watch only while its space
 * does (`desiredTargets`). That keeps an idle hub with no placement at a handful of watches. A watch
 * no longer wanted lingers `lingerMs` before it stops (a slice deleted and soon re-created costs
 * nothing); a stopped watch keeps its cursor, so starting it again resumes without loss.
 */
import type { Logger } from '../log.ts'
import type { SetTimer } from './batcher.ts'
import type { CrdTargets } from './crd-targets.ts'
import type { SliceIndex } from './slice-index.ts'
import { isCoreTarget, targetPath, type WatchTarget } from './watch-targets.ts'

export type RunningWatch = { stop(): Promise<void> }

export type WatchSetOptions = {
  start(target: WatchTarget): RunningWatch
  setTimer: SetTimer
  lingerMs: number
  log?: Logger
}

export type WatchSet = {
  /** Starts the desired watches not running, and stops the others after `lingerMs`. */
  update(desired: readonly WatchTarget[]): void
  /** The running watches (lingering ones included). */
  running(): WatchTarget[]
  /** Stops every watch now. */
  stopAll(): Promise<void>
}

/** Core targets always; the rest while some space has slices; CRD targets of those spaces. */
export function desiredTargets(
  all: readonly WatchTarget[],
  index: SliceIndex,
  crds: CrdTargets
): WatchTarget[] {
  const spaces = index.spaces()
  if (spaces.length === 0) return all.filter(isCoreTarget)
  return [...all, ...crds.inSpaces(spaces)]
}

type Entry = { target: WatchTarget; watch: RunningWatch; cancelLinger?: () => void }

export function createWatchSet(opts: WatchSetOptions): WatchSet {
  const entries = new Map<string, Entry>()
  const stopping = new Set<Promise<void>>()
  let closed = false

  const stop = (path: string, e: Entry) => {
    entries.delete(path)
    opts.log?.info('relay watch stopped', { path })
    const p = e.watch.stop().catch((err: unknown) => {
      opts.log?.error('relay watch failed to stop', { path, err })
    })
    stopping.add(p)
    void p.finally(() => stopping.delete(p))
  }

  return {
    update(desired) {
      if (closed) return
      const want = new Map(desired.map((t) => [targetPath(t), t]))
      for (const [path, target] of want) {
        const e = entries.get(path)
        if (e) {
          e.cancelLinger?.()
          e.cancelLinger = undefined
          continue
        }
        entries.set(path, { target, watch: opts.start(target) })
        opts.log?.info('relay watch started', { path })
      }
      for (const [path, e] of entries) {
        if (want.has(path) || e.cancelLinger) continue
        if (opts.lingerMs <= 0) stop(path, e)
        else
          e.cancelLinger = opts.setTimer(() => {
            if (entries.get(path) === e) stop(path, e)
          }, opts.lingerMs)
      }
    },
    running: () => [...entries.values()].map((e) => e.target),
    async stopAll() {
      closed = true
      for (const [path, e] of [...entries]) {
        e.cancelLinger?.()
        stop(path, e)
      }
      while (stopping.size > 0) await Promise.all([...stopping])
    },
  }
}
