/**
 * The hub's `/openapi/v2`: a Swagger 2.0 document that names the API and defines no models. The
 * hub's schemas are served as OpenAPI v3; kubectl still reads v2 to validate the items of a `List`
 * client-side (`kubectl apply -f` of a `kubectl get -o yaml` dump), and a 404 there fails the whole
 * command, while a document without definitions makes it leave the items to the server's own field
 * validation. kubectl asks for the gnostic protobuf form (openapi.v2.Document: 1 swagger, 2 info
 * {1 title, 2 version}, 8 paths); other clients get JSON.
 */
import type { JsonObject } from './types.ts'

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'

const TITLE = 'edgeplane'
const VERSION = 'v1'

/** The document as JSON. */
export function openApiV2Json(): JsonObject {
  return { swagger: '2.0', info: { title: TITLE, version: VERSION }, paths: {}, definitions: {} }
}

function varint(n: number): number[] {
  const out: number[] = []
  let v = n
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
  return out
}

/** A length-delimited field (wire type 2): a string or an embedded message. */
function lenField(num: number, payload: Uint8Array): number[] {
  return [...varint((num << 3) | 2), ...varint(payload.length), ...payload]
}

const text = (s: string) => new TextEncoder().encode(s)

/** The document as an openapi.v2.Document protobuf message (what kubectl asks for). */
export function openApiV2Protobuf(): Uint8Array<ArrayBuffer> {
  const info = new Uint8Array([...lenField(1, text(TITLE)), ...lenField(2, text(VERSION))])
  return new Uint8Array([
    ...lenField(1, text('2.0')),
    ...lenField(2, info),
    ...lenField(8, new Uint8Array()),
  ])
}

/** True when an Accept header asks for the protobuf form. */
export function wantsOpenApiV2Protobuf(accept: string): boolean {
  return accept.toLowerCase().includes('com.github.proto-openapi.spec.v2')
}
