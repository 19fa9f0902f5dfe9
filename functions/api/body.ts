/**
 * Request bodies: read once, size-checked, and decoded by Content-Type — JSON, YAML (and apply
 * configurations, which are YAML or JSON), and Kubernetes protobuf (what `kubectl create
 * <generator>` sends) for the kinds lib/protobuf describes; other protobuf is refused with 415
 * and a hint to use `kubectl apply -f`. Anything undecodable is a 400 that says where it failed;
 * nothing is stored.
 */
import { parse as parseYaml } from 'yaml'
import { badRequest, tooLarge, unsupportedMediaType } from '../../lib/errors.ts'
import { decodeProtobufBody, isProtobuf } from './protobuf-body.ts'

/** Requests larger than this are refused before decoding (objects themselves stop at 1 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
}

export async function readBody(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? '0')
  if (declared > MAX_BODY_BYTES)
    throw tooLarge(`the request body is ${declared} bytes; the limit is ${MAX_BODY_BYTES} bytes`)
  if (isProtobuf(req.headers.get('content-type'))) {
    const bytes = new Uint8Array(await req.arrayBuffer())
    if (bytes.length > MAX_BODY_BYTES)
      throw tooLarge(
        `the request body is ${bytes.length} bytes; the limit is ${MAX_BODY_BYTES} bytes`
      )
    return decodeProtobufBody(bytes)
  }
  const text = await req.text()
  if (text.length > MAX_BODY_BYTES)
    throw tooLarge(`the request body is ${text.length} bytes; the limit is ${MAX_BODY_BYTES} bytes`)
  return decodeBody(text, req.headers.get('content-type') ?? undefined)
}

export function decodeBody(text: string, contentType: string | undefined): unknown {
  const type = mediaType(contentType)
  if (type.includes('protobuf'))
    throw unsupportedMediaType(
      'protobuf request bodies are not supported by this server; send JSON (for example with `kubectl apply -f`)'
    )
  if (text.trim() === '') return undefined
  const yamlish = type.includes('yaml')
  try {
    return yamlish ? parseYaml(text, { maxAliasCount: 100 }) : JSON.parse(text)
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e)
    throw badRequest(`error decoding ${yamlish ? 'YAML' : 'JSON'} request body: ${why}`)
  }
}
