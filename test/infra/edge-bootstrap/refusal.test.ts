/**
 * The bootstrap CLI's message for a refused rotation: only a 409 whose Status names the field
 * `rotate` is one (another 409, say a concurrent bootstrap, or a 401 is not), and the message
 * names the SyncTarget, says nothing was written and how to rotate or connect another edge.
 */
import { describe, expect, it } from 'vitest'
import { REFUSED_ROTATION_EXIT, rotationRefusal } from '../../../infra/edge-bootstrap/refusal.ts'
import { RemoteError } from '../../../lib/remote/remote-error.ts'

const target = { inventory: 'root:imw-1', syncTarget: 'florin' }
const refused = new RemoteError(409, 'POST x: HTTP 409: has one', {
  reason: 'Conflict',
  detail: 'has one',
  causes: [{ field: 'rotate', reason: 'FieldValueRequired' }],
})

describe('rotationRefusal', () => {
  it('explains a refused rotation', () => {
    const text = rotationRefusal(refused, target) ?? ''
    expect(text).toContain('SyncTarget florin in root:imw-1 already has an edge credential')
    expect(text).toContain('nothing was written')
    expect(text).toContain('--rotate')
    expect(text).toContain('the hub said: has one')
    expect(REFUSED_ROTATION_EXIT).toBe(3)
  })

  it.each([
    ['another conflict', new RemoteError(409, 'x', { reason: 'Conflict', detail: 'raced' })],
    ['a 401', new RemoteError(401, 'x', { causes: [{ field: 'rotate' }] })],
    ['no remote error', new Error('boom')],
  ])('leaves %s alone', (_what, err) => {
    expect(rotationRefusal(err, target)).toBeUndefined()
  })
})
