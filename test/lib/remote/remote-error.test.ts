/**
 * answerError: a kube Status body's reason, message and `details.causes` (field, reason,
 * message) go into the RemoteError, so a client can tell one 409 from another by the field a
 * cause names; a body without causes, a malformed causes list and a non-Status body give none.
 */
import { describe, expect, it } from 'vitest'
import { answerError } from '../../../lib/remote/remote-error.ts'

const status = (details: unknown) =>
  JSON.stringify({ kind: 'Status', code: 409, reason: 'Conflict', message: 'no', details })

describe('answerError', () => {
  it("keeps the Status's causes", () => {
    const cause = { reason: 'FieldValueRequired', field: 'rotate', message: 'ask to rotate' }
    const e = answerError(409, 'Conflict', status({ name: 'mb', causes: [cause] }), 'POST x')
    expect(e).toMatchObject({ code: 409, reason: 'Conflict', detail: 'no', causes: [cause] })
  })

  it.each([
    ['no details', status(undefined)],
    ['details without causes', status({ name: 'mb' })],
    ['causes that are not a list', status({ causes: 'rotate' })],
    ['a body that is no Status', 'conflict'],
  ])('has no causes for %s', (_what, body) => {
    expect(answerError(409, 'Conflict', body, 'POST x').causes).toEqual([])
  })
})
