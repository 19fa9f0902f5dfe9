/**
 * Test projects: `unit` runs everything under test/ except the end-to-end suites (in-process,
 * dynalite started by the tests themselves; test/setup/budget.ts fails a test during which an
 * invocation went past its subrequest budget); `e2e` starts the real stack (dynalite, wrangler dev)
 * and drives it with kubectl and client-node.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup/budget.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
