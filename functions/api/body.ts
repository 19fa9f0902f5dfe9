/**
 * Request bodies: read once, size-checked, and decoded by Content-Type — JSON, YAML (and apply
 * configurations, which are YAML or JSON), and Kubernetes protobuf (what `kubectl create
 * <generator>` sends) for the kinds lib/protobuf describes; other protobuf is refused with 415
 * and a hint to use `kubectl apply -f`. Kube endpoints negotiate the type first (media-type.ts:
 * 415 for text/plain, XML, forms, patch types on POST/PUT...; the patch types on PATCH); `readBody` (hooks, edge API) takes
 * JSON and YAML only (a missing Content-Type is JSON), anything else is 415. Text must be UTF-8:
 * invalid bytes are a 400 (goyaml refuses them in YAML; Go's JSON decoder would silently turn them
 * into U+FFFD, which we refuse instead — no client built on Go's encoder can send them). A JSON
 * body may not start with a byte-order mark (encoding/json: "invalid character"); YAML may, as
 * goyaml skips it. Every decoded document is measured before anything recurses over it: nested
 * more than MAX_NESTING_DEPTH levels is a 400 (see "Request limits" in docs/ARCHITECTURE.md).
 * Anything undecodable is a 400 that says where it failed; nothing is stored.
 */
import { badRequest, tooLarge } from '../../lib/errors.ts'
import type { PatchType } from '../../lib/hub/patch.ts'
import { bodyTooDeep, nestedTooDeep } from '../../lib/patch/json-limits.ts'
import { type BodyFormat, objectBodyFormat, plainBodyFormat } from './media-type.ts'
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

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The body as text; invalid UTF-8 is a 400. A byte-order mark is kept for the decoder to judge. */
function utf8Text(bytes: Uint8Array, format: string): string {
  try {
    return UTF8.decode(bytes)
  } catch {
    throw badRequest(`error decoding ${format} request body: the body is not valid UTF-8`)
  }
}

/** JSON's insignificant whitespace only (String.trim would also drop a byte-order mark). */
const JSON_BLANK = /^[ \t\r\n]*$/

function decodeJson(text: string): unknown {
  if (text.startsWith('\ufeff'))
    throw badRequest(
      'error decoding JSON request body: invalid character U+FEFF (a byte-order mark) looking for beginning of value'
    )
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
  if (format === 'yaml') {
    const text = utf8Text(bytes, 'YAML')
    return text.trim() === '' ? undefined : decodeYaml(text, MAX_BODY_BYTES)
  }
  const text = utf8Text(bytes, 'JSON')
  return JSON_BLANK.test(text) ? undefined : decodeJson(text)
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
 * A body for the non-kube endpoints (hooks, edge API): JSON, or YAML when the media type says so;
 * a missing Content-Type is JSON; any other type is 415, judged before the body is read.
 */
export async function readBody(req: Request): Promise<unknown> {
  const format = plainBodyFormat(req.headers.get('content-type'))
  return decodeAs(await readBytes(req), format)
}
