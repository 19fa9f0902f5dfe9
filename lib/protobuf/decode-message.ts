/**
 * The schema-driven decoder: protobuf bytes plus a `MessageDesc` in, the kube JSON shape out.
 * Fields come out under their JSON names in descriptor order; zero values of non-`KEEP` fields,
 * empty lists, empty maps and empty non-`KEEP` objects are left out, as the JSON API omits them.
 * A field number the descriptor does not know is a 415 that names the message, the field number
 * and where it sits, and points at `kubectl apply -f`: nothing is ever dropped silently.
 * Repeated occurrences of a singular message field are merged, as protobuf specifies.
 */
import { badRequest, unsupportedMediaType } from '../errors.ts'
import type { JsonObject, JsonValue } from '../kube/types.ts'
import {
  expectedWire,
  renderFieldsV1,
  renderIntOrString,
  renderTime,
  scalarValue,
  wireMismatch,
} from './decode-scalar.ts'
import {
  type FieldDesc,
  int32,
  int64,
  type MessageDesc,
  message,
  type ScalarType,
  str,
  type ValueType,
} from './schema.ts'
import {
  readFields,
  readPackedVarints,
  WIRE_LEN,
  WIRE_VARINT,
  WireError,
  type WireField,
} from './wire.ts'

const TIME = message('k8s.io.apimachinery.pkg.apis.meta.v1.Time', [
  int64(1, 'seconds'),
  int32(2, 'nanos'),
])
const INT_OR_STRING = message('k8s.io.apimachinery.pkg.util.intstr.IntOrString', [
  int64(1, 'type'),
  int32(2, 'intVal'),
  str(3, 'strVal'),
])
const QUANTITY = message('k8s.io.apimachinery.pkg.api.resource.Quantity', [str(1, 'string')])
const FIELDS_V1 = message('k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1', [str(1, 'Raw')])

export function unknownField(desc: MessageDesc, num: number, path: string) {
  return unsupportedMediaType(
    `the protobuf body sets field number ${num} of ${desc.name}${path ? ` (at ${path})` : ''}, ` +
      'which this server cannot decode; send the object as JSON or YAML instead, ' +
      'for example with `kubectl apply -f`'
  )
}

function fieldsOf(bytes: Uint8Array, where: string): WireField[] {
  try {
    return readFields(bytes)
  } catch (e) {
    if (e instanceof WireError)
      throw badRequest(`error decoding protobuf body at ${where}: ${e.message}`)
    throw e
  }
}

function packedVarints(bytes: Uint8Array, where: string): bigint[] {
  try {
    return readPackedVarints(bytes)
  } catch (e) {
    if (e instanceof WireError)
      throw badRequest(`error decoding protobuf body at ${where}: ${e.message}`)
    throw e
  }
}

function isEmptyObject(v: JsonValue): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0
}

function isZero(v: JsonValue | undefined): boolean {
  return v === undefined || v === '' || v === 0 || v === false || isEmptyObject(v)
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/** A message-typed value (nested message or kube wrapper) from its merged bytes. */
function messageValue(
  type: Exclude<ValueType, ScalarType>,
  data: Uint8Array,
  path: string
): JsonValue | undefined {
  if (typeof type === 'object') return decodeMessage(type, data, path)
  switch (type) {
    case 'time':
    case 'microTime':
      return renderTime(decodeMessage(TIME, data, path), type === 'microTime')
    case 'intOrString':
      return renderIntOrString(decodeMessage(INT_OR_STRING, data, path))
    case 'quantity':
      return decodeMessage(QUANTITY, data, path).string ?? ''
    case 'fieldsV1':
      return renderFieldsV1(String(decodeMessage(FIELDS_V1, data, path).Raw ?? ''), path)
  }
}

/** What an absent or zero list element or map value renders as. */
function zeroOf(type: ValueType): JsonValue {
  if (typeof type === 'object') return {}
  if (type === 'int32' || type === 'int64' || type === 'double' || type === 'intOrString') return 0
  if (type === 'bool') return false
  if (type === 'time' || type === 'microTime') return null
  if (type === 'fieldsV1') return {}
  return ''
}

const SCALARS: ReadonlySet<string> = new Set([
  'string',
  'int32',
  'int64',
  'bool',
  'bytes',
  'double',
])

function isScalar(type: ValueType): type is ScalarType {
  return typeof type === 'string' && SCALARS.has(type)
}

/** Decodes one value of `type` from a group of wire occurrences (merged for messages). */
function decodeValue(
  type: ValueType,
  occurrences: WireField[],
  path: string
): JsonValue | undefined {
  const last = occurrences[occurrences.length - 1]!
  if (isScalar(type)) {
    const want = expectedWire(type)
    if (last.wire !== want) throw wireMismatch(last, want, `at ${path}`)
    return scalarValue(type, last.value as bigint | Uint8Array, path)
  }
  const chunks = occurrences.map((f) => {
    if (f.wire !== WIRE_LEN) throw wireMismatch(f, WIRE_LEN, `at ${path}`)
    return f.value
  })
  return messageValue(type, concat(chunks), path)
}

function listValues(fd: FieldDesc, occurrences: WireField[], path: string): JsonValue[] {
  const out: JsonValue[] = []
  for (const f of occurrences) {
    const at = `${path}[${out.length}]`
    const packed = isScalar(fd.type) && expectedWire(fd.type) === WIRE_VARINT && f.wire === WIRE_LEN
    if (packed) {
      for (const v of packedVarints(f.value as Uint8Array, at))
        out.push(scalarValue(fd.type as ScalarType, v, at))
      continue
    }
    out.push(decodeValue(fd.type, [f], at) ?? zeroOf(fd.type))
  }
  return out
}

function mapValues(fd: FieldDesc, occurrences: WireField[], path: string): JsonObject {
  const entry = message(`the map entry of ${fd.name}`, [str(1, 'key'), str(2, 'value')])
  const out: JsonObject = {}
  for (const f of occurrences) {
    if (f.wire !== WIRE_LEN) throw wireMismatch(f, WIRE_LEN, `at ${path}`)
    const groups = groupFields(entry, f.value, path)
    const key = groups.get(1) ? String(decodeValue('string', groups.get(1)!, path)) : ''
    const value = groups.get(2)
      ? decodeValue(fd.type, groups.get(2)!, `${path}[${key}]`)
      : undefined
    out[key] = value ?? zeroOf(fd.type)
  }
  return out
}

function groupFields(desc: MessageDesc, bytes: Uint8Array, path: string): Map<number, WireField[]> {
  const groups = new Map<number, WireField[]>()
  for (const f of fieldsOf(bytes, path || desc.name)) {
    if (!desc.byNumber.has(f.num)) throw unknownField(desc, f.num, path)
    const g = groups.get(f.num)
    if (g) g.push(f)
    else groups.set(f.num, [f])
  }
  return groups
}

function fieldValue(fd: FieldDesc, occurrences: WireField[], path: string): JsonValue | undefined {
  if (fd.shape === 'list') {
    const values = listValues(fd, occurrences, path)
    return values.length > 0 ? values : undefined
  }
  if (fd.shape === 'map') {
    const values = mapValues(fd, occurrences, path)
    return Object.keys(values).length > 0 ? values : undefined
  }
  const v = decodeValue(fd.type, occurrences, path)
  if (v === undefined) return undefined
  return fd.keep || !isZero(v) ? v : undefined
}

/** Decodes `bytes` as `desc` into its JSON object. */
export function decodeMessage(desc: MessageDesc, bytes: Uint8Array, path = ''): JsonObject {
  const groups = groupFields(desc, bytes, path)
  const out: JsonObject = {}
  for (const fd of desc.fields) {
    const occurrences = groups.get(fd.num)
    if (!occurrences) continue
    const v = fieldValue(fd, occurrences, fd.inline ? path : join(path, fd.name))
    if (v === undefined) continue
    if (fd.inline && typeof v === 'object' && v !== null && !Array.isArray(v)) Object.assign(out, v)
    else out[fd.name] = v
  }
  return out
}
