import { describe, expect, it } from 'vitest'
import { INSTANCE_HEADER, labelHealth } from '../../lib/instance-label.ts'

describe('labelHealth', () => {
  it('labels the health routes only, keeping status, body and headers', async () => {
    const res = new Response('ok', { status: 200, headers: { 'Content-Type': 'text/plain' } })
    const labelled = labelHealth('https://hub/readyz?verbose', res, 'abc')
    expect(labelled.headers.get(INSTANCE_HEADER)).toBe('abc')
    expect(labelled.headers.get('content-type')).toBe('text/plain')
    expect(labelled.status).toBe(200)
    expect(await labelled.text()).toBe('ok')
    const other = new Response('x', { status: 503 })
    expect(labelHealth('https://hub/readyzz', other, 'abc')).toBe(other)
    expect(labelHealth('https://hub/healthz', other, undefined)).toBe(other)
  })
})
