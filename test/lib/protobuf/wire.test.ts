import { describe, expect, it } from 'vitest'
import {
  readFields,
  readPackedVarints,
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_LEN,
  WIRE_VARINT,
  WireError,
  WireReader,
} from '../../../lib/protobuf/wire.ts'
import {
  concatBytes,
  fixed32Field,
  fixed64Field,
  lenField,
  tag,
  varint,
  vField,
} from './helpers/encode.ts'

describe('WireReader.varint', () => {
  it('reads one-byte, multi-byte and full 64-bit varints', () => {
    const r = new WireReader(
      concatBytes(varint(1), varint(300), varint(2n ** 63n + 5n), varint(-1))
    )
    expect(r.varint()).toBe(1n)
    expect(r.varint()).toBe(300n)
    expect(r.varint()).toBe(2n ** 63n + 5n)
    expect(r.varint()).toBe(2n ** 64n - 1n)
    expect(r.done()).toBe(true)
  })

  it('rejects a truncated varint', () => {
    expect(() => new WireReader(new Uint8Array([0x80, 0x80])).varint()).toThrow(WireError)
  })

  it('rejects a varint longer than ten bytes', () => {
    const bytes = new Uint8Array(11).fill(0x80)
    expect(() => new WireReader(bytes).varint()).toThrow(/longer than 10 bytes/)
  })
})

describe('readFields', () => {
  it('reads each wire type with its field number', () => {
    const bytes = concatBytes(
      vField(1, 150),
      lenField(2, 'hi'),
      fixed64Field(3, 1.5),
      fixed32Field(4, 7)
    )
    const fields = readFields(bytes)
    expect(fields.map((f) => [f.num, f.wire])).toEqual([
      [1, WIRE_VARINT],
      [2, WIRE_LEN],
      [3, WIRE_FIXED64],
      [4, WIRE_FIXED32],
    ])
    expect(fields[0]?.value).toBe(150n)
    expect(new TextDecoder().decode(fields[1]?.value as Uint8Array)).toBe('hi')
    expect(fields[3]?.value).toBe(7)
  })

  it('reads large field numbers', () => {
    expect(readFields(vField(536870911, 1))[0]?.num).toBe(536870911)
  })

  it('rejects a length that runs past the end', () => {
    expect(() => readFields(concatBytes(tag(1, 2), varint(10), [1, 2]))).toThrow(
      /runs past the end/
    )
  })

  it('rejects groups and unknown wire types', () => {
    expect(() => readFields(tag(1, 3))).toThrow(/wire type 3/)
    expect(() => readFields(tag(1, 7))).toThrow(/wire type 7/)
  })

  it('rejects field number 0', () => {
    expect(() => readFields(new Uint8Array([0x00, 0x01]))).toThrow(/field number 0/)
  })

  it('returns nothing for an empty message', () => {
    expect(readFields(new Uint8Array())).toEqual([])
  })
})

describe('readPackedVarints', () => {
  it('reads a packed run of varints', () => {
    expect(readPackedVarints(concatBytes(varint(1), varint(300), varint(0)))).toEqual([
      1n,
      300n,
      0n,
    ])
  })

  it('rejects a truncated run', () => {
    expect(() => readPackedVarints(new Uint8Array([0x01, 0x80]))).toThrow(WireError)
  })
})
