/**
 * Counts full projection-body writes from the DynamoDB client's request hook: a PutItem whose key
 * is a content-addressed body (pk `pb#<hash>`, lib/store/keys.ts). The store writes bodies
 * conditionally (absent or stale only), so a put can be attempted and refused; `attempted` counts
 * every such request sent, `stored` the ones that succeeded (the hook's `after` phase only runs on
 * success). This tells bodies apart from manifests and objects without touching lib/store.
 */
import type { FaultCall } from '../lib/store/dynamo-client.ts'

export type BodyWriteCounts = { attempted: number; stored: number }

export type BodyWrites = {
  /** The client's request hook. */
  observe(call: FaultCall): void
  snapshot(): BodyWriteCounts
  reset(): void
}

/** Is this request a PutItem of a projection body? */
export function isBodyPut(call: Pick<FaultCall, 'op' | 'input'>): boolean {
  if (call.op !== 'PutItem') return false
  const item = (call.input as { Item?: { pk?: { S?: unknown } } } | undefined)?.Item
  const pk = item?.pk?.S
  return typeof pk === 'string' && pk.startsWith('pb#')
}

export function createBodyWriteCounter(): BodyWrites {
  let counts: BodyWriteCounts = { attempted: 0, stored: 0 }
  return {
    observe(call) {
      if (!isBodyPut(call)) return
      if (call.phase === 'before') counts.attempted++
      else counts.stored++
    },
    snapshot: () => ({ ...counts }),
    reset() {
      counts = { attempted: 0, stored: 0 }
    },
  }
}
