/**
 * The test file order for `npm test`: both projects share one pool of workers (vitest.config.ts),
 * so the order of the queue decides what runs side by side. Within each project vitest's own
 * order stands (longest first when a previous run's durations are cached, else largest file
 * first); the end-to-end files, which spend most of their time waiting on their stack, are then
 * interleaved with the unit files (interleave.ts), so a couple of stacks run beside the unit
 * files from the start to near the end. The program-starting files known to run long go to the
 * front of the unit files (long-first.ts), beside the first stacks, so that none of them ends the
 * run alone.
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

const isLong = (f: TestSpecification) =>
  LONG_ISOLATED.some((path) => f.moduleId.endsWith(`/${path}`))

export class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const waiting = sorted.filter((f) => f.project.name === WAITING_PROJECT)
    const busy = longFirst(
      sorted.filter((f) => f.project.name !== WAITING_PROJECT),
      (f) => f.project.name === ISOLATED_PROJECT && isLong(f)
    )
    return interleave(waiting, busy, { lead: E2E_LEAD, spread: E2E_SPREAD })
  }
}
