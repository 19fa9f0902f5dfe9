/**
 * The /openapi/v2 document: its JSON form names the API and defines no models, and its protobuf
 * form is a well-formed openapi.v2.Document carrying the same swagger version and info.
 */
import { describe, expect, it } from 'vitest'
import {
  openApiV2Json,
  openApiV2Protobuf,
  wantsOpenApiV2Protobuf,
} from '../../../lib/kube/openapi-v2.ts'
import { readFields, WIRE_LEN } from '../../../lib/protobuf/wire.ts'

const text = (b: Uint8Array | bigint | number) =>
  b instanceof Uint8Array ? new TextDecoder().decode(b) : String(b)

describe('openapi v2', () => {
  it('JSON: swagger 2.0, the API name, no paths and no definitions', () => {
    expect(openApiV2Json()).toEqual({
      swagger: '2.0',
      info: { title: 'edgeplane', version: 'v1' },
      paths: {},
      definitions: {},
    })
  })

  it('protobuf: Document {1 swagger, 2 info {1 title, 2 version}, 8 empty paths}', () => {
    const fields = readFields(openApiV2Protobuf())
    expect(fields.map((f) => [f.num, f.wire])).toEqual([
      [1, WIRE_LEN],
      [2, WIRE_LEN],
      [8, WIRE_LEN],
    ])
    expect(text(fields[0]?.value ?? 0)).toBe('2.0')
    const info = fields[1]?.value
    if (!(info instanceof Uint8Array)) throw new Error('info is not a message')
    expect(readFields(info).map((f) => [f.num, text(f.value)])).toEqual([
      [1, 'edgeplane'],
      [2, 'v1'],
    ])
    expect(fields[2]?.value).toEqual(new Uint8Array())
    expect(fields.some((f) => f.num === 9)).toBe(false)
  })

  it('serves protobuf only to a client that asks for it', () => {
    expect(
      wantsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')
    ).toBe(true)
    expect(wantsOpenApiV2Protobuf('application/json')).toBe(false)
    expect(wantsOpenApiV2Protobuf('')).toBe(false)
  })
})
