import { describe, expect, it } from 'vitest'
import { INLINE, KEEP, list, map, message, obj, str } from '../../../lib/protobuf/schema.ts'

describe('message', () => {
  it('indexes fields by number and keeps declaration order', () => {
    const inner = message('test.Inner', [str(1, 'a')])
    const d = message('test.Outer', [
      str(3, 'c'),
      obj(1, 'inner', inner, INLINE),
      list(2, 'xs', 'string'),
      map(4, 'm', 'bytes'),
    ])
    expect(d.fields.map((f) => f.name)).toEqual(['c', 'inner', 'xs', 'm'])
    expect(d.byNumber.get(1)?.inline).toBe(true)
    expect(d.byNumber.get(2)?.shape).toBe('list')
    expect(d.byNumber.get(4)?.shape).toBe('map')
    expect(d.byNumber.get(3)?.keep).toBe(false)
    expect(str(5, 'e', KEEP).keep).toBe(true)
  })

  it('refuses duplicate field numbers', () => {
    expect(() => message('test.Bad', [str(1, 'a'), str(1, 'b')])).toThrow(
      /duplicate field number 1/
    )
  })
})
