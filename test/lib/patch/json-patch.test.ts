/**
 * Tests for JSON patch (RFC 6902): every operation, pointer escapes, `-`
 * append, the RFC's error cases (400 for malformed documents, 422 for operations that do not
 * apply), error messages naming the operation and path, and immutability of the input.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../../lib/kube/types.ts'
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../../lib/patch/json-patch.ts'
import { failure } from '../../helpers/api-error.ts'

type Case = { name: string; doc: JsonValue; patch: JsonValue; want: JsonValue }

const cases: Case[] = [
  {
    name: 'add member',
    doc: { foo: 'bar' },
    patch: [{ op: 'add', path: '/baz', value: 'qux' }],
    want: { foo: 'bar', baz: 'qux' },
  },
  {
    name: 'add inserts into array',
    doc: { foo: ['bar', 'baz'] },
    patch: [{ op: 'add', path: '/foo/1', value: 'qux' }],
    want: { foo: ['bar', 'qux', 'baz'] },
  },
  {
    name: 'add appends with -',
    doc: { foo: [1] },
    patch: [{ op: 'add', path: '/foo/-', value: 2 }],
    want: { foo: [1, 2] },
  },
  {
    name: 'add at array length',
    doc: { foo: [1] },
    patch: [{ op: 'add', path: '/foo/1', value: 2 }],
    want: { foo: [1, 2] },
  },
  {
    name: 'add replaces existing member',
    doc: { a: 1 },
    patch: [{ op: 'add', path: '/a', value: { b: 2 } }],
    want: { a: { b: 2 } },
  },
  {
    name: 'add null value',
    doc: {},
    patch: [{ op: 'add', path: '/a', value: null }],
    want: { a: null },
  },
  {
    name: 'add whole document',
    doc: { a: 1 },
    patch: [{ op: 'add', path: '', value: [1] }],
    want: [1],
  },
  {
    name: 'remove member',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'remove', path: '/baz' }],
    want: { foo: 'bar' },
  },
  {
    name: 'remove array item',
    doc: { foo: ['bar', 'qux', 'baz'] },
    patch: [{ op: 'remove', path: '/foo/1' }],
    want: { foo: ['bar', 'baz'] },
  },
  {
    name: 'replace member',
    doc: { baz: 'qux', foo: 'bar' },
    patch: [{ op: 'replace', path: '/baz', value: 'boo' }],
    want: { baz: 'boo', foo: 'bar' },
  },
  {
    name: 'replace array item',
    doc: { l: [1, 2, 3] },
    patch: [{ op: 'replace', path: '/l/2', value: 9 }],
    want: { l: [1, 2, 9] },
  },
  {
    name: 'replace root',
    doc: { a: 1 },
    patch: [{ op: 'replace', path: '', value: { b: 2 } }],
    want: { b: 2 },
  },
  {
    name: 'move member',
    doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    want: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  {
    name: 'move array item',
    doc: { foo: ['all', 'grass', 'cows', 'eat'] },
    patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    want: { foo: ['all', 'cows', 'eat', 'grass'] },
  },
  {
    name: 'move onto itself',
    doc: { a: { b: 1 } },
    patch: [{ op: 'move', from: '/a', path: '/a' }],
    want: { a: { b: 1 } },
  },
  {
    name: 'copy member',
    doc: { a: { b: [1] } },
    patch: [{ op: 'copy', from: '/a/b', path: '/c' }],
    want: { a: { b: [1] }, c: [1] },
  },
  {
    name: 'test passes',
    doc: { baz: 'qux', foo: ['a', 2, 'c'] },
    patch: [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    want: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  {
    name: 'test compares objects structurally',
    doc: { a: { x: 1, y: [1, { z: null }] } },
    patch: [{ op: 'test', path: '/a', value: { y: [1, { z: null }], x: 1 } }],
    want: { a: { x: 1, y: [1, { z: null }] } },
  },
  {
    name: 'escaped pointer tokens',
    doc: { 'a/b': 1, 'm~n': 2 },
    patch: [
      { op: 'replace', path: '/a~1b', value: 3 },
      { op: 'remove', path: '/m~0n' },
    ],
    want: { 'a/b': 3 },
  },
  {
    name: 'empty key',
    doc: { '': 1 },
    patch: [{ op: 'replace', path: '/', value: 2 }],
    want: { '': 2 },
  },
  {
    name: 'ops apply in order',
    doc: { l: [] },
    patch: [
      { op: 'add', path: '/l/-', value: 'a' },
      { op: 'add', path: '/l/0', value: 'b' },
      { op: 'test', path: '/l', value: ['b', 'a'] },
    ],
    want: { l: ['b', 'a'] },
  },
  {
    name: 'kubectl-style label and annotation edits',
    doc: { metadata: { labels: { app: 'x' } } },
    patch: [
      { op: 'add', path: '/metadata/annotations', value: {} },
      { op: 'add', path: '/metadata/annotations/example.com~1owner', value: 'me' },
      { op: 'remove', path: '/metadata/labels/app' },
    ],
    want: { metadata: { labels: {}, annotations: { 'example.com/owner': 'me' } } },
  },
]

describe('applyJsonPatch', () => {
  it.each(cases)('$name', ({ doc, patch, want }) => {
    expect(applyJsonPatch(doc, patch)).toEqual(want)
  })

  it('does not mutate the input document or the patch values', () => {
    const doc = { a: [1, 2], b: { c: 1 } }
    const value = { v: 1 }
    const out = applyJsonPatch(doc, [
      { op: 'remove', path: '/a/0' },
      { op: 'replace', path: '/b/c', value: 2 },
      { op: 'add', path: '/d', value },
    ]) as { d: { v: number } }
    out.d.v = 5
    expect(doc).toEqual({ a: [1, 2], b: { c: 1 } })
    expect(value).toEqual({ v: 1 })
  })

  const unprocessable: { name: string; doc: JsonValue; patch: JsonValue; message: string }[] = [
    {
      name: 'failed test',
      doc: { a: 1 },
      patch: [
        { op: 'add', path: '/b', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ],
      message: 'json patch operation 1 (test "/a") failed: the test did not match',
    },
    {
      name: 'test of a missing path',
      doc: {},
      patch: [{ op: 'test', path: '/a', value: null }],
      message: 'operation 0 (test "/a")',
    },
    {
      name: 'remove missing member',
      doc: { a: 1 },
      patch: [{ op: 'remove', path: '/b' }],
      message: 'operation 0 (remove "/b") failed: the path does not exist',
    },
    {
      name: 'replace missing member',
      doc: { a: 1 },
      patch: [{ op: 'replace', path: '/b', value: 1 }],
      message: 'the path does not exist',
    },
    {
      name: 'add under missing parent',
      doc: {},
      patch: [{ op: 'add', path: '/a/b', value: 1 }],
      message: 'parent of the path does not exist',
    },
    {
      name: 'add past the end',
      doc: { l: [1] },
      patch: [{ op: 'add', path: '/l/3', value: 1 }],
      message: 'index 3 is out of range (length 1)',
    },
    {
      name: 'leading zero index',
      doc: { l: [1, 2] },
      patch: [{ op: 'replace', path: '/l/01', value: 1 }],
      message: 'the path does not exist',
    },
    {
      name: 'remove with -',
      doc: { l: [1] },
      patch: [{ op: 'remove', path: '/l/-' }],
      message: 'the path does not exist',
    },
    {
      name: 'move into own child',
      doc: { a: { b: {} } },
      patch: [{ op: 'move', from: '/a', path: '/a/b/c' }],
      message: 'cannot move a value into one of its own children',
    },
    {
      name: 'copy from missing',
      doc: {},
      patch: [{ op: 'copy', from: '/x', path: '/y' }],
      message: 'the "from" location does not exist',
    },
    {
      name: 'remove root',
      doc: { a: 1 },
      patch: [{ op: 'remove', path: '' }],
      message: 'cannot remove the whole document',
    },
  ]

  it.each(unprocessable)('422 Invalid: $name', ({ doc, patch, message }) => {
    const err = failure(() => applyJsonPatch(doc, patch))
    expect(err.code).toBe(422)
    expect(err.reason).toBe('Invalid')
    expect(err.message).toContain(message)
  })

  const malformed: { name: string; patch: JsonValue; message: string }[] = [
    { name: 'not an array', patch: { op: 'add' }, message: 'expected an array of operations' },
    { name: 'operation not an object', patch: ['add'], message: 'operation 0: expected an object' },
    {
      name: 'unknown op',
      patch: [{ op: 'append', path: '/a' }],
      message: 'operation 0: unknown "op" "append"',
    },
    { name: 'missing op', patch: [{ path: '/a' }], message: 'unknown "op" null' },
    { name: 'missing path', patch: [{ op: 'remove' }], message: '"remove" needs a string "path"' },
    {
      name: 'missing value',
      patch: [
        { op: 'test', path: '/a', value: 1 },
        { op: 'add', path: '/a' },
      ],
      message: 'operation 1: "add" /a needs a "value"',
    },
    {
      name: 'missing from',
      patch: [{ op: 'copy', path: '/a' }],
      message: '"copy" /a needs a string "from"',
    },
    {
      name: 'pointer without slash',
      patch: [{ op: 'remove', path: 'a' }],
      message: '"path" "a" is not a JSON pointer',
    },
    {
      name: 'bad escape',
      patch: [{ op: 'remove', path: '/a~2' }],
      message: 'is not a JSON pointer',
    },
    {
      name: 'bad from pointer',
      patch: [{ op: 'move', from: 'x', path: '/a' }],
      message: '"from" "x" is not a JSON pointer',
    },
  ]

  it.each(malformed)('400 BadRequest: $name', ({ patch, message }) => {
    const err = failure(() => applyJsonPatch({ a: 1 }, patch))
    expect(err.code).toBe(400)
    expect(err.message).toContain(message)
  })

  it('rejects more operations than kube allows with 413', () => {
    const patch = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({
      op: 'test',
      path: '',
      value: {},
    }))
    expect(failure(() => applyJsonPatch({}, patch)).code).toBe(413)
  })
})
