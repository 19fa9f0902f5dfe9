/**
 * The test file order for `npm test`: all projects share one pool of workers (vitest.config.ts),
 * so the order of the queue decides what runs side by side. vitest's own order puts the projects
 * one after another (by name) and, within each, the longest files first when a previous run's
 * durations are cached, else the largest. On top of that:
 * - the files that keep a core busy longest (SLOW_FIRST, measured) start first, so none of them is
 *   the last file running while the other workers sit idle (a fresh clone has no duration cache,
 *   and the hostile-input fuzz file is small but runs for 35 s);
 * - the files that start programs (project `unit-isolated`, each in a fresh module graph) are
 *   spread over the other unit files instead of closing the queue;
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

/**
 * Unit files that each keep a core busy for 12-35 s (wall time alone on 2 cores, 2026-11-26),
 * longest first. A file missing from the run is skipped; one renamed simply loses its head start.
 */
export const SLOW_FIRST = [
  'test/fuzz/hostile.test.ts',
  'test/functions/reconcile-translate/reconcile.test.ts',
  'test/functions/reconcile-summarize/removal.test.ts',
  'test/fuzz/checks.test.ts',
  'test/infra/edge-sim/start.test.ts',
  'test/functions/api/concurrency.test.ts',
  'test/infra/local/local-stack.test.ts',
  'test/functions/reconcile-translate/overlap.test.ts',
  'test/infra/edge-agent/main.test.ts',
  'test/functions/reconcile-translate/customize.test.ts',
]

const slowRank = (f: TestSpecification): number => {
  const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`))
  return i < 0 ? SLOW_FIRST.length : i
}

export class InterleavingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const waiting = sorted.filter((f) => f.project.name === WAITING_PROJECT)
    const busy = sorted.filter((f) => f.project.name !== WAITING_PROJECT)
    const slow = busy
      .filter((f) => slowRank(f) < SLOW_FIRST.length)
      .sort((a, b) => slowRank(a) - slowRank(b))
    const rest = busy.filter((f) => !slow.includes(f))
    const isolated = rest.filter((f) => f.project.name === ISOLATED_PROJECT)
    const shared = rest.filter((f) => f.project.name !== ISOLATED_PROJECT)
    const spreadIsolated = interleave(isolated, shared, { lead: 0, spread: 1 })
    return interleave(waiting, [...slow, ...spreadIsolated], { lead: E2E_LEAD, spread: E2E_SPREAD })
  }
}
