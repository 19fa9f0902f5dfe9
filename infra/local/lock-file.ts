/**
 * One start program per data folder: `<data>/lock` holds the pid of the program that owns the
 * folder. Acquiring creates it exclusively; a lock left by a dead process (a crash, SIGKILL) is
 * taken over (also one naming this very pid, as happens when a container restarts with the same
 * pids); a live owner makes the second start fail with a clear message instead of a LevelDB lock
 * error from dynalite. Released on stop.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'

/** True when a process with this pid exists (signal 0 probes without sending anything). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function ownerOf(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => '')
  const pid = Number.parseInt(text.trim(), 10)
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

export type DataLock = { path: string; release(): Promise<void> }

/** Locks held by this process: its own pid in a lock file means "held here", not "stale". */
const HELD = new Set<string>()

/** Takes the lock for `pid` (default: this process); throws when a live process holds it. */
export async function acquireLock(path: string, pid = process.pid): Promise<DataLock> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, `${pid}\n`, { flag: 'wx', mode: 0o600 })
      HELD.add(path)
      return {
        path,
        release: async () => {
          if (!HELD.delete(path)) return
          if ((await ownerOf(path)) === pid) await rm(path, { force: true })
        },
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const owner = await ownerOf(path)
      if (HELD.has(path)) throw new Error(`this process already uses the data folder (${path})`)
      if (owner !== undefined && owner !== pid && processAlive(owner))
        throw new Error(
          `another edgeplane stack (pid ${owner}) is using this data folder (${path})`
        )
      await rm(path, { force: true })
    }
  }
  throw new Error(`could not take the lock ${path}`)
}
