/**
 * The watch stream's writer (functions/api/watch-writer.ts): the lines of a batch go out as one
 * chunk at flush, in order and each a JSON line (transformed when asked); nothing is written for
 * an empty batch; a batch past the chunk size is written at once, so no chunk grows without bound.
 */
import { describe, expect, it } from 'vitest'
import { createEventWriter } from '../../../functions/api/watch-writer.ts'

const dec = new TextDecoder()

describe('the watch event writer', () => {
  it('writes a batch as one chunk of JSON lines, in order, and nothing for an empty batch', () => {
    const chunks: string[] = []
    const out = createEventWriter((c) => chunks.push(dec.decode(c)))
    out.flush()
    expect(chunks).toEqual([])
    out.emit({ type: 'ADDED', object: { n: 1 } })
    out.emit({ type: 'MODIFIED', object: { n: 2 } })
    expect(chunks).toEqual([])
    out.flush()
    expect(chunks).toEqual([
      '{"type":"ADDED","object":{"n":1}}\n{"type":"MODIFIED","object":{"n":2}}\n',
    ])
    out.flush()
    expect(chunks).toHaveLength(1)
  })

  it('applies the transform to each event', () => {
    const chunks: string[] = []
    const out = createEventWriter(
      (c) => chunks.push(dec.decode(c)),
      (e) => ({ wrapped: e })
    )
    out.emit({ type: 'DELETED' })
    out.flush()
    expect(chunks).toEqual(['{"wrapped":{"type":"DELETED"}}\n'])
  })

  it('writes a large batch in bounded chunks without waiting for the flush', () => {
    const chunks: string[] = []
    const out = createEventWriter((c) => chunks.push(dec.decode(c)))
    const big = 'x'.repeat(10_000)
    for (let i = 0; i < 20; i++) out.emit({ i, big })
    expect(chunks.length).toBeGreaterThan(0)
    out.flush()
    const lines = chunks.join('').trimEnd().split('\n')
    expect(lines.map((l) => JSON.parse(l).i)).toEqual([...Array(20).keys()])
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(64 * 1024 + 10_100)
  })
})
