/**
 * Decodes a Kubernetes protobuf request body (`application/vnd.kubernetes.protobuf`) into the
 * JSON object it stands for. The body is the 4-byte magic `k8s\0` followed by a `runtime.Unknown`
 * {1 typeMeta {1 apiVersion, 2 kind}, 2 raw, 3 contentEncoding, 4 contentType}; `raw` is the typed
 * object, decoded with the descriptor registered for its apiVersion and kind. A kind without a
 * descriptor, an encoded (e.g. gzipped) payload, or a field the descriptor lacks is a 415 that
 * suggests `kubectl apply -f`; bytes that are not valid protobuf are a 400.
 */
import { badRequest, unsupportedMediaType } from '../errors.ts'
import type { JsonObject } from '../kube/types.ts'
import { decodeMessage } from './decode-message.ts'
import { decodeString } from './decode-scalar.ts'
import { protobufKind } from './kinds.ts'
import { readFields, WIRE_LEN, WireError, type WireField } from './wire.ts'

const MAGIC = [0x6b, 0x38, 0x73, 0x00]

const USE_JSON = 'send the object as JSON or YAML instead, for example with `kubectl apply -f`'

type Envelope = {
  apiVersion: string
  kind: string
  raw: Uint8Array
  contentEncoding: string
  contentType: string
}

function fields(bytes: Uint8Array, where: string): WireField[] {
  try {
    return readFields(bytes)
  } catch (e) {
    if (e instanceof WireError) throw badRequest(`error decoding protobuf ${where}: ${e.message}`)
    throw e
  }
}

function lenValue(f: WireField, where: string): Uint8Array {
  if (f.wire !== WIRE_LEN)
    throw badRequest(`error decoding protobuf ${where}: field ${f.num} is not length-delimited`)
  return f.value
}

function readTypeMeta(bytes: Uint8Array, env: Envelope): void {
  for (const f of fields(bytes, 'typeMeta')) {
    const text = decodeString(lenValue(f, 'typeMeta'))
    if (f.num === 1) env.apiVersion = text
    else if (f.num === 2) env.kind = text
    else
      throw unsupportedMediaType(
        `the protobuf typeMeta has unknown field number ${f.num}; ${USE_JSON}`
      )
  }
}

function readEnvelope(bytes: Uint8Array): Envelope {
  const env: Envelope = {
    apiVersion: '',
    kind: '',
    raw: new Uint8Array(),
    contentEncoding: '',
    contentType: '',
  }
  for (const f of fields(bytes, 'envelope')) {
    const value = lenValue(f, 'envelope')
    if (f.num === 1) readTypeMeta(value, env)
    else if (f.num === 2) env.raw = value
    else if (f.num === 3) env.contentEncoding = decodeString(value)
    else if (f.num === 4) env.contentType = decodeString(value)
    else
      throw unsupportedMediaType(
        `the protobuf envelope (runtime.Unknown) has unknown field number ${f.num}; ${USE_JSON}`
      )
  }
  return env
}

function hasMagic(bytes: Uint8Array): boolean {
  return MAGIC.every((b, i) => bytes[i] === b)
}

/** The JSON object (`apiVersion`, `kind`, then the object's fields) of a kube protobuf body. */
export function decodeKubeProtobuf(bytes: Uint8Array): JsonObject {
  if (!hasMagic(bytes))
    throw badRequest(
      'error decoding protobuf body: it does not start with the Kubernetes magic "k8s\\0"'
    )
  const env = readEnvelope(bytes.subarray(MAGIC.length))
  if (env.contentEncoding !== '')
    throw unsupportedMediaType(
      `protobuf bodies with content encoding "${env.contentEncoding}" are not supported; ${USE_JSON}`
    )
  if (env.contentType !== '' && !env.contentType.includes('protobuf'))
    throw unsupportedMediaType(
      `protobuf envelopes carrying "${env.contentType}" are not supported; ${USE_JSON}`
    )
  if (env.apiVersion === '' || env.kind === '')
    throw badRequest(
      'error decoding protobuf body: the envelope does not name an apiVersion and kind'
    )
  const desc = protobufKind(env.apiVersion, env.kind)
  if (!desc)
    throw unsupportedMediaType(
      `this server cannot decode ${env.kind} (${env.apiVersion}) from protobuf; ${USE_JSON}`
    )
  return { apiVersion: env.apiVersion, kind: env.kind, ...decodeMessage(desc, env.raw) }
}
