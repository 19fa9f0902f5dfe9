/**
 * Request bodies: read once, size-checked, and decoded by Content-Type — JSON, YAML (and apply
 * configurations, which are YAML or JSON), and Kubernetes protobuf (what `kubectl create
 * <generator>` sends) for the kinds lib/protobuf describes; other protobuf is refused with 415
 * and a hint to use `kubectl apply -f`. Kube endpoints negotiate the type first (media-type.ts:
 * 415 for text/plain, XML, forms, patch types on POST/PUT...); `readBody` (hooks, edge API) reads
 * any type as JSON or YAML. Every decoded document is measured before anything recurses over it:
 * nested more than MAX_NESTING_DEPTH levels is a 400 (see "Request limits" in
 * docs/ARCHITECTURE.md). Anything undecodable is a 400 that says where it failed; nothing is
 * stored.
 */
import { badRequest, tooLarge, unsupportedMediaType } from '../../lib/errors.ts'
import type { PatchType } from '../../lib/hub/patch.ts'
import { bodyTooDeep, nestedTooDeep } from '../../lib/patch/json-limits.ts'
import { type BodyFormat, mediaTypeOf, objectBodyFormat } from './media-type.ts'
import { decodeProtobufBody } from './protobuf-body.ts'
import { decodeYaml } from './yaml-body.ts'

/**
 * Requests larger than this are refused before decoding (objects themselves stop at 1 MiB); kube's
 * MaxRequestBodyBytes has the same default.
 */
export const MAX_BODY_BYTES = 3 * 1024 * 1024

const tooBig = (bytes: number) =>
  tooLarge(`the request body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES} bytes`)

async function readBytes(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES) throw tooBig(declared)
  const bytes = new Uint8Array(await req.arrayBuffer())
  if (bytes.length > MAX_BODY_BYTES) throw tooBig(bytes.length)
  return bytes
}

function checkDepth(value: unknown, format: string): unknown {
  if (nestedTooDeep(value)) throw bodyTooDeep(format)
  return value
}

function decodeJson(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e)
    throw badRequest(`error decoding JSON request body: ${why}`)
  }
  return checkDepth(value, 'JSON')
}

/** Decodes bytes already read in the given format; an empty body is no body (undefined). */
function decodeAs(bytes: Uint8Array, format: BodyFormat): unknown {
  if (format === 'protobuf') {
    const value = decodeProtobufBody(bytes)
    return value === undefined ? undefined : checkDepth(value, 'protobuf')
  }
  const text = new TextDecoder().decode(bytes)
  if (text.trim() === '') return undefined
  return format === 'yaml' ? decodeYaml(text, MAX_BODY_BYTES) : decodeJson(text)
}

/** The body of a create or update (also of a review): JSON, YAML or protobuf, else 415. */
export async function readObjectBody(req: Request): Promise<unknown> {
  const format = objectBodyFormat(req.headers.get('content-type'))
  return decodeAs(await readBytes(req), format)
}

/** DeleteOptions: like an object body, but the Content-Type only matters when there is a body. */
export async function readDeleteBody(req: Request): Promise<unknown> {
  const bytes = await readBytes(req)
  if (bytes.length === 0) return undefined
  return decodeAs(bytes, objectBodyFormat(req.headers.get('content-type')))
}

/** A PATCH body of an accepted patch type: apply configurations are YAML, the others JSON. */
export async function readPatchBody(req: Request, type: PatchType): Promise<unknown> {
  return decodeAs(await readBytes(req), type === 'application/apply-patch+yaml' ? 'yaml' : 'json')
}

/**
 * A body for the non-kube endpoints (hooks, edge API): YAML when the media type says so, refused
 * protobuf, JSON otherwise.
 */
export async function readBody(req: Request): Promise<unknown> {
  const bytes = await readBytes(req)
  return decodeBody(new TextDecoder().decode(bytes), req.headers.get('content-type') ?? undefined)
}

/** Decodes body text by a lenient reading of its Content-Type (see `readBody`). */
export function decodeBody(text: string, contentType: string | undefined): unknown {
  const type = mediaTypeOf(contentType ?? '') ?? ''
  if (type.includes('protobuf'))
    throw unsupportedMediaType(
      'protobuf request bodies are not supported by this server; send JSON (for example with `kubectl apply -f`)'
    )
  if (text.trim() === '') return undefined
  return type.includes('yaml') ? decodeYaml(text, MAX_BODY_BYTES) : decodeJson(text)
}
