/**
 * Protobuf request bodies, as `kubectl create <generator>` sends them: `isProtobuf` recognizes the
 * media type, and `decodeProtobufBody` turns the bytes into the JSON object the rest of the API
 * handles (see lib/protobuf/decode-kube.ts for what is understood and what gets a 415).
 */
import { decodeKubeProtobuf } from '../../lib/protobuf/decode-kube.ts'
import { mediaTypeOf } from './media-type.ts'

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf'

/** True for `application/vnd.kubernetes.protobuf` (any parameters, any case). */
export function isProtobuf(contentType: string | null | undefined): boolean {
  return mediaTypeOf(contentType ?? '') === PROTOBUF_MEDIA_TYPE
}

/** Decodes a protobuf body; an empty body is no body. */
export function decodeProtobufBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined
  return decodeKubeProtobuf(bytes)
}
