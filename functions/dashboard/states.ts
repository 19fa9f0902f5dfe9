/**
 * The dashboard's copy states: the summarize step's per-(object, destination) states
 * (lib/summarize/copy-condition.ts) ranked worst first, so a cell (one placement at one edge) and a
 * row (one placement everywhere) show the worst of their copies. A stale edge ranks right after a
 * failure: its copies are unknown, not failed, and the dashboard says so.
 */
import type { CopyCounts } from '../../lib/apis/edge-summary.ts'
import type { CopyStateName } from '../../lib/summarize/copy-condition.ts'

/** Worst first. */
export const STATE_RANK: readonly CopyStateName[] = [
  'failed',
  'stale',
  'removing',
  'pending',
  'applied',
  'ready',
]

/** The worst state with a non-zero count; null when every count is zero. */
export function worstOf(counts: CopyCounts): CopyStateName | null {
  return STATE_RANK.find((s) => counts[s] > 0) ?? null
}

/** Whether a state asks for attention (anything but ready). */
export const needsAttention = (state: CopyStateName | null) => state !== null && state !== 'ready'
