/**
 * Test projects: `unit` runs everything under test/ except the end-to-end suites (in-process,
 * dynalite started by the tests themselves; test/setup/budget.ts fails a test during which an
 * invocation went past its subrequest budget); `e2e` starts the real stack (dynalite, wrangler dev)
 * and drives it with kubectl and client-node.
 *
 * Both projects share one pool of workers when they have the same maxWorkers (same groupOrder),
 * ordered by test/setup/sequencer.ts: an end-to-end file mostly waits on its stack, so a couple
 * of them run beside the unit files, which use the CPU. Every stack has its own data folder,
 * ports and tables, and every unit file its own dynalite tables, so files do not see each other.
 * `npm test` runs with `--maxWorkers=4` (package.json: on 2 cores, about two stacks waiting and
 * two unit files computing); a bare `npx vitest run <files>` keeps vitest's default of cores - 1
 * workers, so targeted runs stay light on a shared machine.
 */
import { defineConfig } from 'vitest/config'
import { InterleavingSequencer } from './test/setup/sequencer.ts'

export default defineConfig({
  test: {
    sequence: { sequencer: InterleavingSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup/budget.ts'],
          // Each unit file gets a fresh module graph. Sharing it (isolate: false) halves unit CPU,
          // but with it the relay bundle test (test/infra/build.test.ts) failed in two fresh-clone
          // runs in a row once the file order changed: some module state leaks between files.
          isolate: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
