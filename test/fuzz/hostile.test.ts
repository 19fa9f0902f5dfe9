/**
 * Issue 11's hostile-input acceptance, in the unit suite: 1,000 generated hostile requests
 * (infra/fuzz, every category: malformed bodies, content types, deep nesting, patch bombs,
 * invalid names, paths and query parameters, identity changes, every verb on every kind of
 * endpoint, the edge API, the hooks, raw wire requests) sent over real sockets to the node server
 * (so `..` and `%2e%2e` reach the hub as written) of an in-process hub over dynalite, in a worker
 * thread so an out-of-memory request cannot take the test down. Zero violations are required:
 * no 5xx (but kube's 504 ResourceVersionTooLarge for reads ahead of the store), every error a
 * kube Status, nothing stored that was refused, no object changed that a request does not name,
 * no identity change, no 2xx for what kube always refuses, and the hub answering throughout.
 * On failure the message lists every violation with its request (`npm run fuzz` prints the same).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CATEGORIES } from '../../infra/fuzz/generate.ts'
import { violationLines } from '../../infra/fuzz/report.ts'
import { type FuzzResult, runFuzz } from '../../infra/fuzz/runner.ts'
import { openSession, type Session } from '../../infra/fuzz/session.ts'

let session: Session
beforeAll(async () => {
  session = await openSession({ timeoutMs: 20_000 })
}, 120_000)
afterAll(() => session?.close())

describe('1,000 hostile requests against an in-process hub', () => {
  let result: FuzzResult
  beforeAll(async () => {
    result = await runFuzz(session.hub, { seed: 11, count: 1000, healthEvery: 100 })
  }, 600_000)

  it('sends every request of every category, with every token', () => {
    expect(result.sent).toBe(1000)
    expect(result.skipped).toBe(0)
    expect([...result.counts.keys()].sort()).toEqual(Object.keys(CATEGORIES).sort())
    expect(result.healthChecks).toBeGreaterThanOrEqual(10)
  })

  it('finds no violation', () => {
    const listing = violationLines(result.violations).join('\n')
    expect(result.violations.length, `violations:\n${listing}`).toBe(0)
  })
})
