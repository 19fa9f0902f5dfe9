/**
 * A tiny in-memory RequestCounter: how many DynamoDB commands of each kind were sent, for the
 * benchmarks ("requests per operation"). Pass it to `createDynamoClient({ counter })`.
 */
import type { RequestCounter } from './types.ts'

export function createRequestCounter(): RequestCounter & { reset(): void; total(): number } {
  let counts: Record<string, number> = {}
  return {
    add(op: string) {
      counts[op] = (counts[op] ?? 0) + 1
    },
    snapshot() {
      return { ...counts }
    },
    reset() {
      counts = {}
    },
    total() {
      return Object.values(counts).reduce((sum, x) => sum + x, 0)
    },
  }
}
