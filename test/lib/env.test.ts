import { describe, expect, it } from 'vitest'
import { WORKER_MAX_IN_FLIGHT } from '../../lib/edge/admission.ts'
import { readConfig } from '../../lib/env.ts'

describe('readConfig: EDGE_MAX_IN_FLIGHT', () => {
  it('defaults to the isolate limit, takes 0 (off) and a number, refuses the rest', () => {
    expect(readConfig({}).EDGE_MAX_IN_FLIGHT).toBe(WORKER_MAX_IN_FLIGHT)
    expect(readConfig({ EDGE_MAX_IN_FLIGHT: '0' }).EDGE_MAX_IN_FLIGHT).toBe(0)
    expect(readConfig({ EDGE_MAX_IN_FLIGHT: '200' }).EDGE_MAX_IN_FLIGHT).toBe(200)
    for (const bad of ['-1', '1.5', 'many'])
      expect(() => readConfig({ EDGE_MAX_IN_FLIGHT: bad })).toThrow(/EDGE_MAX_IN_FLIGHT/)
  })
})
