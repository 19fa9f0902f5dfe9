import { constants, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  bodyText,
  CHUNK_BYTES,
  encodeBody,
  GZIP_LEVEL,
  gunzip,
  gzip,
  joinChunks,
  MAX_INFLATED_BYTES,
  MAX_OBJECT_BYTES,
  parseBody,
  serializeBody,
  splitChunks,
} from '../../../lib/store/body-codec.ts'
import { apiError, configMap } from './fixtures.ts'

describe('body codec', () => {
  it('gzips and gunzips bytes', async () => {
    const data = new TextEncoder().encode('hello '.repeat(1000))
    const packed = await gzip(data)
    expect(packed.length).toBeLessThan(data.length / 10)
    expect(await gunzip(packed)).toEqual(data)
    expect(await gunzip(await gzip(new Uint8Array()))).toEqual(new Uint8Array())
  })

  it('reads what the web CompressionStream wrote (bodies of earlier releases)', async () => {
    const data = new TextEncoder().encode(
      JSON.stringify({ kind: 'ConfigMap', x: 'y'.repeat(9000) })
    )
    const stream = new Response(data).body?.pipeThrough(new CompressionStream('gzip'))
    const packed = new Uint8Array(await new Response(stream).arrayBuffer())
    expect(await gunzip(packed)).toEqual(data)
    expect(await bodyText(packed)).toBe(new TextDecoder().decode(data))
  })

  it('writes at the fastest level and reads what any level wrote (items of earlier releases)', async () => {
    const data = new TextEncoder().encode(
      JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ name: `cm-${i}`, rv: 1000 + i })))
    )
    const packed = await gzip(data)
    expect(packed).toEqual(new Uint8Array(gzipSync(data, { level: constants.Z_BEST_SPEED })))
    for (const level of [constants.Z_DEFAULT_COMPRESSION, constants.Z_BEST_COMPRESSION])
      expect(await gunzip(new Uint8Array(gzipSync(data, { level })))).toEqual(data)
    expect(GZIP_LEVEL).toBe(constants.Z_BEST_SPEED)
  })

  it('refuses a stored gzip that inflates past the limit instead of exhausting memory', async () => {
    const zeros = new Uint8Array(MAX_INFLATED_BYTES + 1)
    const bomb = new Uint8Array(gzipSync(zeros, { level: constants.Z_BEST_COMPRESSION }))
    expect(bomb.length).toBeLessThan(100_000)
    await expect(gunzip(bomb)).rejects.toThrow()
  })

  it('stores objects without resourceVersion and restores the item rv on read', async () => {
    const obj = configMap('a')
    obj.metadata.resourceVersion = '7'
    expect(JSON.parse(serializeBody(obj)).metadata.resourceVersion).toBeUndefined()
    const { text, data } = await encodeBody(obj, 'configmaps "a"')
    expect(await bodyText(data)).toBe(text)
    expect(parseBody(text, 12)).toEqual({
      ...obj,
      metadata: { ...obj.metadata, resourceVersion: '12' },
    })
  })

  it('accepts exactly 1 MiB of JSON and refuses one byte more', async () => {
    const base = configMap('a', 'default', { x: '' })
    const fill = MAX_OBJECT_BYTES - new TextEncoder().encode(serializeBody(base)).length
    const exact = configMap('a', 'default', { x: 'y'.repeat(fill) })
    await expect(encodeBody(exact, 'x')).resolves.toBeDefined()
    const over = configMap('a', 'default', { x: 'y'.repeat(fill + 1) })
    const err = await apiError(encodeBody(over, 'configmaps "a"'))
    expect(err.code).toBe(413)
    expect(err.message).toContain('1048577 bytes')
  })

  it('splits into chunks and joins them back', () => {
    const data = new Uint8Array(CHUNK_BYTES * 2 + 5).map((_, i) => i % 251)
    const chunks = splitChunks(data)
    expect(chunks.map((c) => c.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, 5])
    expect(joinChunks(chunks)).toEqual(data)
  })
})
