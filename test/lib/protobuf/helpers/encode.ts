/**
 * A tiny protobuf writer for crafting test bodies: tags, varints (negative int64 as ten bytes),
 * length-delimited fields, fixed32/64, and the kube envelope (`k8s\0` + runtime.Unknown).
 */

export type Part = Uint8Array | number[]

export function concatBytes(...parts: Part[]): Uint8Array {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p)))
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of arrays) {
    out.set(a, at)
    at += a.length
  }
  return out
}

export function varint(value: number | bigint): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value))
  const out: number[] = []
  do {
    const b = Number(v & 0x7fn)
    v >>= 7n
    out.push(v > 0n ? b | 0x80 : b)
  } while (v > 0n)
  return new Uint8Array(out)
}

export const tag = (num: number, wire: number) => varint(num * 8 + wire)

export const vField = (num: number, value: number | bigint | boolean) =>
  concatBytes(tag(num, 0), varint(typeof value === 'boolean' ? (value ? 1 : 0) : value))

export function lenField(num: number, payload: Uint8Array | string): Uint8Array {
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload
  return concatBytes(tag(num, 2), varint(bytes.length), bytes)
}

export const msgField = (num: number, ...fields: Uint8Array[]) =>
  lenField(num, concatBytes(...fields))

export function fixed64Field(num: number, value: number): Uint8Array {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setFloat64(0, value, true)
  return concatBytes(tag(num, 1), b)
}

export function fixed32Field(num: number, value: number): Uint8Array {
  const b = new Uint8Array(4)
  new DataView(b.buffer).setUint32(0, value, true)
  return concatBytes(tag(num, 5), b)
}

/** A map<string, string> entry field. */
export const mapEntry = (num: number, key: string, value: string) =>
  msgField(num, lenField(1, key), lenField(2, value))

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw, extra fields...}. */
export function envelope(
  apiVersion: string,
  kind: string,
  raw: Uint8Array,
  ...extra: Uint8Array[]
) {
  return concatBytes(
    [0x6b, 0x38, 0x73, 0x00],
    msgField(1, lenField(1, apiVersion), lenField(2, kind)),
    lenField(2, raw),
    ...extra
  )
}
