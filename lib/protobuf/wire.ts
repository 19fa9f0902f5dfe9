/**
 * A small reader for the protobuf wire format: varints (read as 64-bit BigInts, so nothing loses
 * precision), length-delimited slices, fixed32/fixed64, and field tags. It knows nothing about schemas;
 * `decode-message.ts` walks fields with it. Malformed input (a truncated varint or a length that
 * runs past the end) throws `WireError`, which the decoder turns into a 400.
 */

export const WIRE_VARINT = 0
export const WIRE_FIXED64 = 1
export const WIRE_LEN = 2
export const WIRE_FIXED32 = 5

/** A field as it appears on the wire: its number, wire type, and raw payload. */
export type WireField =
  | { num: number; wire: typeof WIRE_VARINT; value: bigint }
  | { num: number; wire: typeof WIRE_FIXED64; value: bigint }
  | { num: number; wire: typeof WIRE_LEN; value: Uint8Array }
  | { num: number; wire: typeof WIRE_FIXED32; value: number }

export class WireError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WireError'
  }
}

const MAX_VARINT_BYTES = 10

export class WireReader {
  readonly bytes: Uint8Array
  pos = 0

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  done(): boolean {
    return this.pos >= this.bytes.length
  }

  /** An unsigned varint of up to 64 bits. */
  varint(): bigint {
    let result = 0n
    let shift = 0n
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const b = this.bytes[this.pos]
      if (b === undefined) throw new WireError(`truncated varint at byte ${this.pos}`)
      this.pos++
      result |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result)
      shift += 7n
    }
    throw new WireError(`varint longer than ${MAX_VARINT_BYTES} bytes at byte ${this.pos}`)
  }

  /** A varint that must fit a non-negative safe integer (tags and lengths). */
  smallVarint(what: string): number {
    const start = this.pos
    const v = this.varint()
    if (v > BigInt(Number.MAX_SAFE_INTEGER))
      throw new WireError(`${what} too large at byte ${start}`)
    return Number(v)
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.bytes.length)
      throw new WireError(
        `length ${n} at byte ${this.pos} runs past the end (${this.bytes.length})`
      )
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  /** Reads the next tag and its payload. */
  field(): WireField {
    const at = this.pos
    const tag = this.smallVarint('tag')
    const num = Math.floor(tag / 8)
    const wire = tag % 8
    if (num < 1) throw new WireError(`invalid field number 0 at byte ${at}`)
    switch (wire) {
      case WIRE_VARINT:
        return { num, wire, value: this.varint() }
      case WIRE_FIXED64: {
        const view = new DataView(this.take(8).slice().buffer)
        return { num, wire, value: view.getBigUint64(0, true) }
      }
      case WIRE_LEN:
        return { num, wire, value: this.take(this.smallVarint('length')) }
      case WIRE_FIXED32: {
        const view = new DataView(this.take(4).slice().buffer)
        return { num, wire, value: view.getUint32(0, true) }
      }
      default:
        throw new WireError(`unsupported wire type ${wire} for field ${num} at byte ${at}`)
    }
  }
}

/** All fields of one message, in wire order. */
export function readFields(bytes: Uint8Array): WireField[] {
  const r = new WireReader(bytes)
  const out: WireField[] = []
  while (!r.done()) out.push(r.field())
  return out
}

/** The varints of a packed repeated scalar field. */
export function readPackedVarints(bytes: Uint8Array): bigint[] {
  const r = new WireReader(bytes)
  const out: bigint[] = []
  while (!r.done()) out.push(r.varint())
  return out
}
