/**
 * The parts of the local stack (local-stack.ts), each started piece (the lock, dynalite, the hub,
 * the relay, every simulated edge and agent: local-edges.ts) with its `stop()`. Stopping goes in
 * reverse start order, and a part that fails to stop is logged without keeping the others up.
 */
import type { Logger } from '../../lib/log.ts'

export type Part = { name: string; stop(): Promise<void> }

/** Stops `parts` last first; each failure is logged, none stops the rest. */
export async function stopAll(parts: Part[], log: Logger): Promise<void> {
  for (const part of [...parts].reverse()) {
    try {
      await part.stop()
      log.info('stopped', { part: part.name })
    } catch (e) {
      log.error('stopping failed', { part: part.name, error: e })
    }
  }
}
