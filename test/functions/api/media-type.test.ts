import { describe, expect, it } from 'vitest'
import {
  mediaTypeOf,
  objectBodyFormat,
  patchTypeOf,
  plainBodyFormat,
} from '../../../functions/api/media-type.ts'
import { ApiError } from '../../../lib/errors.ts'

describe('objectBodyFormat', () => {
  it('reads JSON, YAML and protobuf, with parameters and in any case', () => {
    expect(objectBodyFormat('application/json')).toBe('json')
    expect(objectBodyFormat('Application/JSON; charset=utf-8')).toBe('json')
    expect(objectBodyFormat('application/yaml')).toBe('yaml')
    expect(objectBodyFormat('application/vnd.kubernetes.protobuf')).toBe('protobuf')
  })

  it('takes a missing or empty Content-Type as JSON, as kube', () => {
    expect(objectBodyFormat(undefined)).toBe('json')
    expect(objectBodyFormat(null)).toBe('json')
    expect(objectBodyFormat('  ')).toBe('json')
  })

  it('answers 415 in kube words for anything else', () => {
    for (const type of [
      'text/plain',
      'application/merge-patch+json',
      'text/yaml',
      'json',
      'a/b/c',
    ]) {
      let error: unknown
      try {
        objectBodyFormat(type)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code).toBe(415)
      expect((error as ApiError).message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf'
      )
    }
  })

  it('mediaTypeOf keeps only a well-formed type/subtype', () => {
    expect(mediaTypeOf(' Text/Plain ; x=y')).toBe('text/plain')
    expect(mediaTypeOf('nonsense')).toBeUndefined()
    expect(mediaTypeOf('')).toBeUndefined()
  })

  it('has one list per kind of body; only the patch list has no default', () => {
    const refusal = (f: () => unknown): unknown[] | undefined => {
      try {
        f()
      } catch (e) {
        return e instanceof ApiError ? [e.code, e.message] : [e]
      }
      return undefined
    }
    expect(patchTypeOf('Application/Merge-Patch+JSON; charset=utf-8')).toBe(
      'application/merge-patch+json'
    )
    expect(plainBodyFormat(undefined)).toBe('json')
    expect(plainBodyFormat('application/yaml')).toBe('yaml')
    expect(refusal(() => patchTypeOf(undefined))).toEqual([
      415,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    ])
    expect(refusal(() => patchTypeOf('application/json'))?.[0]).toBe(415)
    expect(refusal(() => plainBodyFormat('application/vnd.kubernetes.protobuf'))).toEqual([
      415,
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    ])
  })
})
