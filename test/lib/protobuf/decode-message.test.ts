import { describe, expect, it } from 'vitest'
import { decodeMessage } from '../../../lib/protobuf/decode-message.ts'
import {
  bool,
  bytes,
  fieldsV1,
  INLINE,
  int32,
  int64,
  intOrString,
  KEEP,
  list,
  map,
  message,
  microTime,
  obj,
  quantity,
  str,
  time,
} from '../../../lib/protobuf/schema.ts'
import { failure as apiError } from '../../helpers/api-error.ts'
import {
  concatBytes,
  fixed64Field,
  lenField,
  mapEntry,
  msgField,
  tag,
  varint,
  vField,
} from './helpers/encode.ts'

const Ref = message('test.Ref', [str(1, 'name')])
const Inner = message('test.Inner', [
  obj(1, 'ref', Ref, INLINE),
  str(2, 'key'),
  bool(3, 'optional', KEEP),
])
const Thing = message('test.Thing', [
  str(1, 'name'),
  int32(2, 'count'),
  int64(3, 'big'),
  bool(4, 'flag'),
  int32(5, 'replicas', KEEP),
  list(6, 'tags', 'string'),
  list(7, 'codes', 'int32'),
  map(8, 'labels', 'string'),
  map(9, 'blobs', 'bytes'),
  obj(10, 'inner', Inner),
  obj(11, 'kept', Inner, KEEP),
  list(12, 'items', Inner),
  intOrString(13, 'port', KEEP),
  quantity(14, 'size'),
  time(15, 'when'),
  microTime(16, 'whenMicro'),
  map(17, 'limits', 'quantity'),
  fieldsV1(18, 'fields'),
  bytes(19, 'raw'),
])

describe('decodeMessage', () => {
  it('renders scalars, lists and maps under their JSON names', () => {
    const body = concatBytes(
      lenField(1, 'web'),
      vField(2, -3),
      vField(3, 2n ** 40n),
      vField(4, true),
      lenField(6, 'a'),
      lenField(6, 'b'),
      vField(7, 1),
      lenField(7, concatBytes(varint(2), varint(3))),
      mapEntry(8, 'app', 'web'),
      msgField(9, lenField(1, 'bin'), lenField(2, new Uint8Array([0xff, 0x00]))),
      lenField(19, new Uint8Array([1, 2, 3]))
    )
    expect(decodeMessage(Thing, body)).toEqual({
      name: 'web',
      count: -3,
      big: 2 ** 40,
      flag: true,
      tags: ['a', 'b'],
      codes: [1, 2, 3],
      labels: { app: 'web' },
      blobs: { bin: '/wA=' },
      raw: 'AQID',
    })
  })

  it('keeps descriptor order, not wire order', () => {
    const body = concatBytes(vField(4, true), lenField(1, 'x'))
    expect(Object.keys(decodeMessage(Thing, body))).toEqual(['name', 'flag'])
  })

  it('drops zero values and empty objects unless the field is KEEP', () => {
    const body = concatBytes(
      lenField(1, ''),
      vField(2, 0),
      vField(4, false),
      vField(5, 0),
      msgField(10),
      msgField(11),
      msgField(15)
    )
    expect(decodeMessage(Thing, body)).toEqual({ replicas: 0, kept: {} })
  })

  it('inlines embedded messages and keeps pointer booleans', () => {
    const body = msgField(10, msgField(1, lenField(1, 'cm')), lenField(2, 'k'), vField(3, false))
    expect(decodeMessage(Thing, body)).toEqual({ inner: { name: 'cm', key: 'k', optional: false } })
  })

  it('merges repeated occurrences of a singular message field', () => {
    const body = concatBytes(msgField(10, lenField(2, 'k')), msgField(10, vField(3, true)))
    expect(decodeMessage(Thing, body)).toEqual({ inner: { key: 'k', optional: true } })
  })

  it('keeps empty elements of repeated messages', () => {
    const body = concatBytes(msgField(12), msgField(12, lenField(2, 'k')))
    expect(decodeMessage(Thing, body)).toEqual({ items: [{}, { key: 'k' }] })
  })

  it('renders IntOrString as a number or a string', () => {
    expect(decodeMessage(Thing, msgField(13, vField(1, 0), vField(2, 8080)))).toEqual({
      port: 8080,
    })
    expect(decodeMessage(Thing, msgField(13, vField(1, 1), lenField(3, 'http')))).toEqual({
      port: 'http',
    })
    expect(decodeMessage(Thing, msgField(13))).toEqual({ port: 0 })
  })

  it('renders quantities as strings, also as map values', () => {
    const body = concatBytes(
      msgField(14, lenField(1, '1Gi')),
      msgField(17, lenField(1, 'cpu'), msgField(2, lenField(1, '500m')))
    )
    expect(decodeMessage(Thing, body)).toEqual({ size: '1Gi', limits: { cpu: '500m' } })
  })

  it('renders Time as RFC 3339 seconds and MicroTime with microseconds', () => {
    const body = concatBytes(
      msgField(15, vField(1, 1700000000), vField(2, 123456789)),
      msgField(16, vField(1, 1700000000), vField(2, 123456789))
    )
    expect(decodeMessage(Thing, body)).toEqual({
      when: '2023-11-14T22:13:20Z',
      whenMicro: '2023-11-14T22:13:20.123456Z',
    })
  })

  it('renders FieldsV1 as the JSON it carries', () => {
    const body = msgField(18, lenField(1, '{"f:data":{}}'))
    expect(decodeMessage(Thing, body)).toEqual({ fields: { 'f:data': {} } })
  })

  it('reads doubles from fixed64', () => {
    const D = message('test.D', [{ ...str(1, 'x'), type: 'double' }])
    expect(decodeMessage(D, fixed64Field(1, 2.5))).toEqual({ x: 2.5 })
  })

  it('answers an unknown field number with 415 naming the type, field and place', () => {
    const body = msgField(12, lenField(2, 'k'), vField(9, 1))
    const e = apiError(() => decodeMessage(Thing, body, 'spec'))
    expect(e.code).toBe(415)
    expect(e.reason).toBe('UnsupportedMediaType')
    expect(e.message).toContain('field number 9 of test.Inner (at spec.items[0])')
    expect(e.message).toContain('kubectl apply -f')
  })

  it('answers an unknown field inside a map entry with 415', () => {
    const e = apiError(() => decodeMessage(Thing, msgField(8, vField(3, 1))))
    expect(e.code).toBe(415)
    expect(e.message).toContain('map entry of labels')
  })

  it('answers a wire type that does not fit with 400', () => {
    const e1 = apiError(() => decodeMessage(Thing, vField(1, 5)))
    expect(e1.code).toBe(400)
    expect(e1.message).toContain('field 1 at name has wire type varint, expected length-delimited')
    const e2 = apiError(() => decodeMessage(Thing, lenField(2, 'x')))
    expect(e2.code).toBe(400)
  })

  it('answers truncated bytes with 400', () => {
    const e = apiError(() => decodeMessage(Thing, concatBytes(tag(1, 2), varint(5), [0x61])))
    expect(e.code).toBe(400)
    expect(e.message).toContain('runs past the end')
  })

  it('refuses an int64 JSON cannot carry exactly', () => {
    const e = apiError(() => decodeMessage(Thing, vField(3, 2n ** 60n)))
    expect(e.code).toBe(400)
    expect(e.message).toContain('beyond what JSON can carry')
  })

  it('refuses FieldsV1 that is not JSON', () => {
    expect(apiError(() => decodeMessage(Thing, msgField(18, lenField(1, '{')))).code).toBe(400)
  })
})
