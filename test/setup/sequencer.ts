/**
 * The test file order for `npm test`: both projects share one pool of workers (vitest.config.ts),
 * so the order of the queue decides what runs side by side. Within each project vitest's own
 * order stands (longest first when a previous run's durations are cached, else largest file
 * first); the end-to-end files, which spend much of their time waiting on their stack, are then
 * interleaved with the unit files (interleave.ts), so a couple of stacks run beside the unit
 * files from the start to near the end. The files known to run long go first (long-first.ts): the
 * long end-to-end files at the head of theirs, longest first, and the long program-starting files
 * at the front of the unit files, beside the first stacks, so that none of them ends the run.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { interleave } from './interleave.ts'
import { longFirst } from './long-first.ts'

/** The project whose files wait on a stack rather than use the CPU. */
export const WAITING_PROJECT = 'e2e'

/** End-to-end files at the head of the queue; the pool's other workers start on unit files. */
export const E2E_LEAD = 2

/**
 * The remaining end-to-end files are spread over the first half of the unit files: all of them
 * start early, so the run ends on unit files, which the workers share well.
 */
export const E2E_SPREAD = 0.5

/** The project whose files start programs, each with a fresh module graph (vitest.config.ts). */
export const ISOLATED_PROJECT = 'unit-isolated'

/**
 * Its files that run far longer than the others (seconds on a fresh clone, 2 cores, in the full
 * run, 2026-11-26): hostile.test.ts 57-69, local-stack 15, edge-sim/start 15, checks.test.ts 13,
 * edge-agent/main 9.
 */
export const LONG_ISOLATED = [
  'test/fuzz/hostile.test.ts',
  'test/fuzz/checks.test.ts',
  'test/infra/edge-agent/main.test.ts',
  'test/infra/edge-sim/start.test.ts',
  'test/infra/local/local-stack.test.ts',
]

/**
 * The end-to-end files that run longest, longest first (seconds of tests, after their stack's boot,
 * on a fresh clone, 2 cores, in the full run, 2026-11-26): translation-removal 87,
 * translation-overlap 84, translation 68, edges 59, kubectl-habits 59, restart 57, hub-supervision
 * 54, edges-offline 48, control-plane 40, edge-agent-restart 37, kubectl-habits-edge-rollouts 36.
 * They start first, so that the short ones fill the end of the run.
 */
export const LONG_E2E = [
  'test/e2e/translation-removal.test.ts',
  'test/e2e/translation-overlap.test.ts',
  'test/e2e/translation.test.ts',
  'test/e2e/edges.test.ts',
  'test/e2e/kubectl-habits.test.ts',
  'test/e2e/restart.test.ts',
  'test/e2e/hub-supervision.test.ts',
  'test/e2e/edges-offline.test.ts',
  'test/e2e/control-plane.test.ts',
  'test/e2e/edge-agent-restart.test.ts',
  'test/e2e/kubectl-habits-edge-rollouts.test.ts',
]

/** A file's place in `list` (its rank among the long files), undefined when not in it. */
const rankIn = (list: string[]) => (f: TestSpecification) => {
  const i = list.findIndex((path) => f.moduleId.endsWith(`/${path}`))
  return i < 0 ? undefined : i
}

export class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const waiting = longFirst(
      sorted.filter((f) => f.project.name === WAITING_PROJECT),
      rankIn(LONG_E2E)
    )
    const isolatedRank = rankIn(LONG_ISOLATED)
    const busy = longFirst(
      sorted.filter((f) => f.project.name !== WAITING_PROJECT),
      (f) => (f.project.name === ISOLATED_PROJECT ? isolatedRank(f) : undefined)
    )
    return interleave(waiting, busy, { lead: E2E_LEAD, spread: E2E_SPREAD })
  }
}
