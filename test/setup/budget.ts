/**
 * Fails any unit test during which an invocation went past its subrequest budget
 * (lib/budget/violations.ts), even when the overrun was swallowed (a background removal, a
 * reconcile outcome): the local stack and the tests must show what the Workers platform would
 * refuse. A test that overruns on purpose takes the violations itself.
 */
import { afterEach, expect } from 'vitest'
import { takeViolations } from '../../lib/budget/violations.ts'

afterEach(() => {
  const over = takeViolations()
  expect(over, 'invocations over their subrequest budget').toEqual([])
})
