/**
 * The test file order for `npm test`: all projects share one pool of workers (vitest.config.ts),
 * so the order of the queue decides what runs side by side. vitest's own order puts the projects
 * one after another (by name) and, within each, the longest files first when a previous run's
 * durations are cached, else the largest. On top of that:
 * - the files that start programs (project `unit-isolated`, each in a fresh module graph) are
 *   spread over the other unit files instead of closing the queue (where the 35 s hostile-input
 *   fuzz file, small and so sorted last, ran on after every other worker had finished);
 * - the end-to-end files, which spend most of their time waiting on their stack, are interleaved
 *   with the unit files (interleave.ts), so a couple of stacks run beside the unit files from the
 *   start to near the end.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { interleave } from './interleave.ts'

/** The project whose files wait on a stack rather than use the CPU. */
export const WAITING_PROJECT = 'e2e'

/** The unit project whose files each get a fresh module graph (vitest.config.ts). */
export const ISOLATED_PROJECT = 'unit-isolated'

/** End-to-end files at the head of the queue; the pool's other workers start on unit files. */
export const E2E_LEAD = 2

/**
 * The remaining end-to-end files are spread over the first half of the unit files: all of them
 * start early, so the run ends on unit files, which the workers share well.
 */
export const E2E_SPREAD = 0.5

export class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const waiting = sorted.filter((f) => f.project.name === WAITING_PROJECT)
    const busy = sorted.filter((f) => f.project.name !== WAITING_PROJECT)
    const isolated = busy.filter((f) => f.project.name === ISOLATED_PROJECT)
    const shared = busy.filter((f) => f.project.name !== ISOLATED_PROJECT)
    const spreadIsolated = interleave(isolated, shared, { lead: 0, spread: 1 })
    return interleave(waiting, spreadIsolated, { lead: E2E_LEAD, spread: E2E_SPREAD })
  }
}
