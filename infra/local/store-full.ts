/**
 * The local store on a full disk, inside dynalite's process (dynalite-main.ts). LevelDB fails the
 * write that does not fit (`LEVEL_IO_ERROR … No space left on device`), dynalite throws it
 * uncaught, and LevelDB then fails every later write until the database is reopened — while its
 * reads go on working. So the first such error puts the store in a "full" state instead of
 * ending it: the writes in flight are answered with DynamoDB's 500 InternalServerError naming the
 * cause (one of them is the write that failed; the others may or may not have landed, as a 500
 * says; dynalite's own late answer to them is dropped), every later write is answered so at once
 * without reaching LevelDB, and reads are served as before. The hub answers those 500s as 503
 * with `retryAfterSeconds` (lib/store/unavailable.ts). Every RECHECK_MS a probe file of
 * PROBE_BYTES is written beside the database; once it fits, the process exits with RECOVER_EXIT
 * and its supervisor (dynalite-process.ts) starts a fresh one, which reopens the database.
 */

import { unlink, writeFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'

/** The exit code that asks the supervisor for a fresh store (EX_TEMPFAIL). */
export const RECOVER_EXIT = 75

const RECHECK_MS = 1_000
const PROBE_BYTES = 1024 * 1024

/** DynamoDB's operations that write. */
const WRITES = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'CreateTable',
  'UpdateTable',
  'DeleteTable',
  'UpdateTimeToLive',
])

const isWrite = (target: string) => WRITES.has(target.slice(target.indexOf('.') + 1))

/** A LevelDB write that failed for want of room (or any I/O error, which LevelDB keeps). */
export function isStoreIoError(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | undefined
  return err?.code === 'LEVEL_IO_ERROR' || /No space left on device/.test(String(err?.message))
}

function answerFull(res: ServerResponse, cause: string): void {
  if (res.headersSent || res.writableEnded) return
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: `the local store cannot write: ${cause}`,
  })
  res.writeHead(500, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
  // dynalite may still answer it (a write that landed after all): that answer is dropped.
  res.setHeader = () => res
  res.writeHead = () => res
  res.end = () => res
}

export type FullStore = {
  /** For dynalite-server.ts's `admit`: refuses writes while full, tracks those in flight. */
  admit(target: string, res: ServerResponse): boolean
  /** Takes an uncaught error: true when it was LevelDB's I/O error (the store is now full). */
  fail(e: unknown): boolean
}

export function fullStore(dir: string, onFull: (cause: string) => void): FullStore {
  const writing = new Set<ServerResponse>()
  let cause: string | undefined

  const recheck = async () => {
    const probe = join(dir, '.space-check')
    try {
      await writeFile(probe, Buffer.alloc(PROBE_BYTES))
      await unlink(probe)
      process.exit(RECOVER_EXIT)
    } catch {
      await unlink(probe).catch(() => undefined)
      setTimeout(recheck, RECHECK_MS).unref()
    }
  }

  return {
    admit(target, res) {
      if (!isWrite(target)) return true
      if (cause !== undefined) {
        answerFull(res, cause)
        return false
      }
      writing.add(res)
      res.once('close', () => writing.delete(res))
      return true
    },
    fail(e) {
      if (!isStoreIoError(e)) return false
      if (cause !== undefined) return true
      cause = e instanceof Error ? e.message : String(e)
      for (const res of writing) answerFull(res, cause)
      writing.clear()
      onFull(cause)
      setTimeout(recheck, RECHECK_MS).unref()
      return true
    },
  }
}
