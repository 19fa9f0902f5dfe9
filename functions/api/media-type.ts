/**
 * Content-Type negotiation for request bodies, as kube's apiserver does it
 * (k8s.io/apiserver/pkg/endpoints/handlers/negotiation): a body-carrying create or update, and a
 * delete that sends DeleteOptions, is decoded as JSON, YAML or Kubernetes protobuf; a missing
 * Content-Type means JSON (kube takes the first type it serves); anything else, or a header that is
 * not a media type, is 415 UnsupportedMediaType listing the accepted types. Parameters such as
 * `; charset=utf-8` are allowed. PATCH has its own list (lib/hub/patch.ts, asPatchType).
 */
import { unsupportedMediaType } from '../../lib/errors.ts'

export type BodyFormat = 'json' | 'yaml' | 'protobuf'

const ACCEPTED = new Map<string, BodyFormat>([
  ['application/json', 'json'],
  ['application/yaml', 'yaml'],
  ['application/vnd.kubernetes.protobuf', 'protobuf'],
])

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/

/** The lower-cased `type/subtype` of a Content-Type header, or undefined when it is not one. */
export function mediaTypeOf(contentType: string): string | undefined {
  const base = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  return TOKEN.test(base) ? base : undefined
}

/** The format of an object body (create, update, DeleteOptions); 415 for any other media type. */
export function objectBodyFormat(contentType: string | null | undefined): BodyFormat {
  if (contentType === null || contentType === undefined || contentType.trim() === '') return 'json'
  const type = mediaTypeOf(contentType)
  const format = type === undefined ? undefined : ACCEPTED.get(type)
  if (!format)
    throw unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: ${[...ACCEPTED.keys()].join(', ')}`
    )
  return format
}
