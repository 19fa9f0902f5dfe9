import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors.ts'
import {
  base64,
  decodeString,
  renderFieldsV1,
  renderIntOrString,
  renderTime,
  scalarValue,
} from '../../../lib/protobuf/decode-scalar.ts'

describe('scalarValue', () => {
  it('sign-extends int32 and int64', () => {
    expect(scalarValue('int32', 2n ** 64n - 1n, 'x')).toBe(-1)
    expect(scalarValue('int64', 2n ** 64n - 2n, 'x')).toBe(-2)
  })

  it('renders bools, strings and bytes', () => {
    expect(scalarValue('bool', 1n, 'x')).toBe(true)
    expect(scalarValue('bool', 0n, 'x')).toBe(false)
    expect(scalarValue('string', new TextEncoder().encode('ü'), 'x')).toBe('ü')
    expect(scalarValue('bytes', new Uint8Array([104, 105]), 'x')).toBe('aGk=')
  })

  it('refuses int64 values past 2^53', () => {
    expect(() => scalarValue('int64', 2n ** 53n, 'spec.x')).toThrow(ApiError)
  })
})

describe('base64 and decodeString', () => {
  it('encodes long byte runs in chunks', () => {
    const data = new Uint8Array(100_000).map((_, i) => i % 256)
    expect(base64(data)).toBe(Buffer.from(data).toString('base64'))
  })

  it('replaces invalid UTF-8 instead of failing', () => {
    expect(decodeString(new Uint8Array([0x61, 0xff]))).toBe('a\uFFFD')
  })
})

describe('kube wrappers', () => {
  it('renders the zero time as absent and others in UTC', () => {
    expect(renderTime({}, false)).toBeUndefined()
    expect(renderTime({ seconds: 0, nanos: 0 }, true)).toBeUndefined()
    expect(renderTime({ seconds: 86400 }, false)).toBe('1970-01-02T00:00:00Z')
    expect(renderTime({ seconds: 86400, nanos: 5000 }, true)).toBe('1970-01-02T00:00:00.000005Z')
  })

  it('renders IntOrString by its type', () => {
    expect(renderIntOrString({ type: 1, strVal: '25%' })).toBe('25%')
    expect(renderIntOrString({ intVal: 3 })).toBe(3)
    expect(renderIntOrString({})).toBe(0)
  })

  it('parses FieldsV1 JSON and refuses anything else', () => {
    expect(renderFieldsV1('{"f:a":{}}', 'x')).toEqual({ 'f:a': {} })
    expect(renderFieldsV1('', 'x')).toEqual({})
    expect(() => renderFieldsV1('nope', 'x')).toThrow(/valid JSON/)
  })
})
