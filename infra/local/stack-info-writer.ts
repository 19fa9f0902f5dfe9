/**
 * Keeps `stack.json` current while the stack runs: each `rewrite()` chains one write of what
 * `current()` returns then (nothing while it returns undefined, before the stack is ready), so
 * writes never overlap and the last one written is the latest; a failed write is logged, not
 * thrown. `close()` lets the chain finish, stops later rewrites and removes the file.
 */
import type { Logger } from '../../lib/log.ts'
import { removeStackInfo, type StackInfo, writeStackInfo } from './stack-info.ts'

export type StackInfoWriter = {
  rewrite(): void
  /** Resolves when every rewrite asked for so far has ended. */
  flushed(): Promise<void>
  close(): Promise<void>
}

export function createStackInfoWriter(
  file: string,
  current: () => StackInfo | undefined,
  log: Logger
): StackInfoWriter {
  let closed = false
  let writing: Promise<void> = Promise.resolve()
  return {
    rewrite: () => {
      writing = writing
        .then(() => {
          const info = current()
          return info && !closed ? writeStackInfo(file, info) : undefined
        })
        .catch((e: unknown) => log.warn('could not rewrite stack.json', { error: e }))
    },
    flushed: () => writing,
    close: async () => {
      closed = true
      await writing
      await removeStackInfo(file)
    },
  }
}
