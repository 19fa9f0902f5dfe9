/**
 * A tiny in-memory RequestCounter: how many DynamoDB commands of each kind were sent, for the
 * benchmarks ("requests per operation"), and, given each command's input, how many of each kind
 * went to each class of partition (request-class.ts: `GetItem kv:tokens`), to say where a
 * figure's reads go. Pass it to `createDynamoClient({ counter })`.
 */
import { requestClass } from './request-class.ts'
import type { RequestCounter } from './types.ts'

export type CountingCounter = RequestCounter & {
  reset(): void
  total(): number
  /** Counts by `<operation> <partition class>`, for the commands added with their input. */
  byClass(): Record<string, number>
}

export function createRequestCounter(): CountingCounter {
  let counts: Record<string, number> = {}
  let classes: Record<string, number> = {}
  return {
    add(op: string, input?: unknown) {
      counts[op] = (counts[op] ?? 0) + 1
      if (input === undefined) return
      const key = `${op} ${requestClass(input)}`
      classes[key] = (classes[key] ?? 0) + 1
    },
    snapshot() {
      return { ...counts }
    },
    byClass() {
      return { ...classes }
    },
    reset() {
      counts = {}
      classes = {}
    },
    total() {
      return Object.values(counts).reduce((sum, x) => sum + x, 0)
    },
  }
}
