/** Errors render as kube Status: API errors as themselves, an unreachable store as 503, bugs as 500. */
import { describe, expect, it } from 'vitest'
import { errorResponse } from '../../../functions/api/respond.ts'
import { conflict } from '../../../lib/errors.ts'
import { createLogger } from '../../../lib/log.ts'

const log = createLogger({ level: 'error', sink: () => {} })

describe('errorResponse', () => {
  it('answers an API error with its own code and Status', async () => {
    const res = errorResponse(conflict('configmaps', { name: 'a' }, 'x'), log, 'test')
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 })
  })

  it('answers a dropped store connection with 503 and a retry hint', async () => {
    const res = errorResponse(new Error('socket hang up'), log, 'test')
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({
      reason: 'ServiceUnavailable',
      details: { retryAfterSeconds: 1 },
    })
  })

  it('answers anything else with a 500 Status without its stack', async () => {
    const res = errorResponse(new TypeError('boom'), log, 'test')
    expect(res.status).toBe(500)
    const body = (await res.json()) as { message: string }
    expect(body.message).not.toContain('boom')
  })
})
