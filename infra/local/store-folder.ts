/**
 * What `npm start` checks of the local store's folder before dynalite opens it, so a stack that
 * cannot keep its objects says why in words: a folder it cannot write (a read-only filesystem,
 * another owner) stops the start with an error naming the folder and the cause — where dynalite
 * alone would exit with `Database is closed` — and a filesystem with little or no space left is
 * a warning with the bytes free (writes then answer 503 until there is room, reads go on).
 */
import { statfs, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '../../lib/log.ts'

/** Below this many free bytes the start warns that writes may soon fail. */
export const LOW_SPACE_BYTES = 16 * 1024 * 1024

const UNWRITABLE = new Set(['EROFS', 'EACCES', 'EPERM'])

/** Throws when `dir` cannot be written; warns when its filesystem is (nearly) full. */
export async function checkStoreFolder(dir: string, log: Logger): Promise<void> {
  const probe = join(dir, '.write-check')
  try {
    await writeFile(probe, 'ok\n', { mode: 0o600 })
    await unlink(probe)
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    if (err.code === 'ENOSPC') {
      log.warn('the local store has no space left: writes answer 503 until there is room', {
        path: dir,
      })
      return
    }
    if (err.code && UNWRITABLE.has(err.code))
      throw new Error(
        `the local store's folder ${dir} is not writable (${err.code}: ${err.message}); dynalite keeps every object there: make it writable, or set EDGEPLANE_DATA to a writable folder`
      )
    throw e
  }
  const fs = await statfs(dir).catch(() => undefined)
  const free = fs ? fs.bavail * fs.bsize : Number.POSITIVE_INFINITY
  if (free < LOW_SPACE_BYTES)
    log.warn('the local store is nearly out of space: writes answer 503 once it is full', {
      path: dir,
      freeBytes: free,
    })
}
