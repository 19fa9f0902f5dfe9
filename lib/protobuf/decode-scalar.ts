/**
 * Turns one wire value into JSON for the protobuf scalar types, and renders the kube wrapper
 * messages the way their Go JSON marshalers do: IntOrString as a number or a string, Quantity as
 * its string, Time as RFC 3339 seconds in UTC, MicroTime with microseconds, FieldsV1 as the JSON
 * object it carries, bytes as base64. A wire type that does not fit the declared type is a 400.
 */

import { badRequest } from '../errors.ts'
import type { JsonObject, JsonValue } from '../kube/types.ts'
import type { ScalarType } from './schema.ts'
import { WIRE_FIXED64, WIRE_LEN, WIRE_VARINT, type WireField } from './wire.ts'

const utf8 = new TextDecoder('utf-8')

const WIRE_NAMES = ['varint', 'fixed64', 'length-delimited', 'group start', 'group end', 'fixed32']

export function expectedWire(type: ScalarType): number {
  if (type === 'string' || type === 'bytes') return WIRE_LEN
  if (type === 'double') return WIRE_FIXED64
  return WIRE_VARINT
}

export function wireMismatch(f: WireField, want: number, where: string) {
  return badRequest(
    `error decoding protobuf body: field ${f.num} ${where} has wire type ${WIRE_NAMES[f.wire] ?? f.wire}, expected ${WIRE_NAMES[want]}`
  )
}

function toSafeNumber(v: bigint, where: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER))
    throw badRequest(
      `error decoding protobuf body: ${where} holds ${v}, beyond what JSON can carry`
    )
  return Number(v)
}

export function base64(data: Uint8Array): string {
  let bin = ''
  const CHUNK = 0x8000
  for (let i = 0; i < data.length; i += CHUNK) {
    bin += String.fromCharCode(...data.subarray(i, i + CHUNK))
  }
  return btoa(bin)
}

export function decodeString(data: Uint8Array): string {
  return utf8.decode(data)
}

/** A scalar already checked to have the right wire type (varints arrive as bigint). */
export function scalarValue(
  type: ScalarType,
  value: bigint | Uint8Array,
  where: string
): JsonValue {
  if (value instanceof Uint8Array) return type === 'bytes' ? base64(value) : decodeString(value)
  switch (type) {
    case 'int32':
      return Number(BigInt.asIntN(32, value))
    case 'int64':
      return toSafeNumber(BigInt.asIntN(64, value), where)
    case 'bool':
      return value !== 0n
    case 'double': {
      const view = new DataView(new ArrayBuffer(8))
      view.setBigUint64(0, value, true)
      return view.getFloat64(0, true)
    }
    default:
      throw badRequest(`error decoding protobuf body: ${where} is not a ${type}`)
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0')
}

/** metav1.Time / MicroTime from {seconds, nanos}; the zero time renders as absent. */
export function renderTime(o: JsonObject, micro: boolean): string | undefined {
  const seconds = typeof o.seconds === 'number' ? o.seconds : 0
  const nanos = typeof o.nanos === 'number' ? o.nanos : 0
  if (seconds === 0 && nanos === 0) return undefined
  const d = new Date(seconds * 1000)
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  return micro ? `${base}.${pad(Math.floor(nanos / 1000), 6)}Z` : `${base}Z`
}

/** intstr.IntOrString from {type, intVal, strVal}: type 1 is a string. */
export function renderIntOrString(o: JsonObject): JsonValue {
  if (o.type === 1) return typeof o.strVal === 'string' ? o.strVal : ''
  return typeof o.intVal === 'number' ? o.intVal : 0
}

/** FieldsV1 carries its JSON document as raw bytes (already decoded to a string). */
export function renderFieldsV1(raw: string, where: string): JsonValue {
  if (raw === '') return {}
  try {
    return JSON.parse(raw) as JsonValue
  } catch {
    throw badRequest(`error decoding protobuf body: ${where} does not hold valid JSON`)
  }
}
