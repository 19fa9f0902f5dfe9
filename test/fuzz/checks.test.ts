/**
 * The fuzzer's judges must catch what they are for: infra/fuzz/checks.ts (answers), snapshot.ts
 * (`diff`) and generate.ts (a deterministic plan covering every category).
 */
import { describe, expect, it } from 'vitest'
import { checkAnswer, isRvTooLarge, statusProblem } from '../../infra/fuzz/checks.ts'
import { DEFAULT_FIXTURE } from '../../infra/fuzz/fixture.ts'
import { CATEGORIES, plan, roundSizes } from '../../infra/fuzz/generate.ts'
import { diff, type Entry } from '../../infra/fuzz/snapshot.ts'
import type { Answer, FuzzRequest } from '../../infra/fuzz/types.ts'

const req = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
  category: 'test',
  label: 'test',
  method: 'GET',
  path: '/api/v1/namespaces/fuzz/configmaps',
  token: 'admin',
  write: false,
  ...over,
})
const status = (code: number, extra: object = {}) =>
  JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason: 'BadRequest',
    message: 'x',
    code,
    ...extra,
  })
const answer = (s: number, body: string, over: Partial<Answer> = {}): Answer => ({
  status: s,
  contentType: 'application/json',
  body,
  ...over,
})
const kinds = (r: FuzzRequest, a: Answer) => checkAnswer(r, a).violations.map((v) => v.kind)
const tooLarge = status(504, {
  reason: 'Timeout',
  details: {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  },
})

describe('checkAnswer', () => {
  it('passes a Status error and a 2xx', () => {
    expect(kinds(req(), answer(400, status(400)))).toEqual([])
    expect(kinds(req(), answer(200, '{"kind":"ConfigMapList"}'))).toEqual([])
  })
  it('flags 5xx, missing answers and errors that are not a Status', () => {
    expect(kinds(req(), answer(500, status(500)))).toEqual(['server-error'])
    expect(kinds(req(), answer(0, '', { error: 'reset' }))).toEqual(['no-answer'])
    expect(kinds(req(), answer(400, 'Bad Request'))).toEqual(['not-a-status'])
    expect(kinds(req(), answer(404, status(400)))).toEqual(['not-a-status'])
    expect(
      statusProblem(
        { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: '', code: 400 },
        400
      )
    ).toContain('reason')
  })
  it('lets HEAD and 304 go without a body', () => {
    expect(kinds(req({ method: 'HEAD' }), answer(404, ''))).toEqual([])
    expect(kinds(req(), answer(304, ''))).toEqual([])
  })
  it('tolerates 504 ResourceVersionTooLarge only for reads generated ahead of the store', () => {
    expect(isRvTooLarge(JSON.parse(tooLarge))).toBe(true)
    expect(checkAnswer(req({ futureRv: true }), answer(504, tooLarge))).toEqual({
      violations: [],
      rvTooLarge: true,
    })
    expect(kinds(req(), answer(504, tooLarge))).toEqual(['server-error'])
    expect(kinds(req({ futureRv: true }), answer(504, status(504, { reason: 'Timeout' })))).toEqual(
      ['server-error']
    )
  })
  it('flags a 2xx for what kube refuses, and a silent watch from the future', () => {
    expect(kinds(req({ mustRefuse: true }), answer(201, '{}'))).toEqual(['accepted-hostile'])
    const watch = req({
      watch: true,
      futureRv: true,
      path: '/api/v1/configmaps?watch=1&resourceVersion=9',
    })
    expect(kinds(watch, answer(200, '', { silent: true }))).toEqual(['silent-watch'])
    expect(
      checkAnswer(watch, answer(200, `{"type":"ERROR","object":${tooLarge}}\n`)).rvTooLarge
    ).toBe(true)
    expect(kinds(watch, answer(200, `{"type":"ERROR","object":${status(500)}}\n`))).toEqual([
      'server-error',
    ])
  })
})

describe('diff', () => {
  const e = (rv: string, over: Partial<Entry> = {}): Entry => ({
    uid: 'u',
    rv,
    kind: 'ConfigMap',
    apiVersion: 'v1',
    deleting: false,
    ...over,
  })
  it('names created, deleted and modified objects', () => {
    const before = new Map([
      ['a', e('1')],
      ['b', e('1')],
    ])
    const after = new Map([
      ['a', e('2')],
      ['c', e('1')],
    ])
    expect(diff(before, after).map((c) => `${c.key} ${c.what}`)).toEqual([
      'a modified',
      'b deleted',
      'c created',
    ])
    expect(
      diff(
        before,
        new Map([
          ['a', e('1', { kind: 'Secret' })],
          ['b', e('1')],
        ])
      )
    ).toHaveLength(1)
    expect(diff(before, before)).toEqual([])
  })
})

/**
 * Planning 1,000 requests with 100,000-deep bodies is about 14 s of CPU alone, and four to five
 * times that beside the stacks booting at the start of the full run (vitest.config.ts).
 */
const PLAN_TIMEOUT_MS = 180_000

describe('plan', () => {
  const fx = { ...DEFAULT_FIXTURE, mailbox: 'm1', otherMailbox: 'm2' }
  it(
    'is deterministic from its seed and covers every category',
    () => {
      const a = plan({ seed: 5, count: 1000 }, fx)
      expect(a).toHaveLength(1000)
      expect(JSON.stringify(plan({ seed: 5, count: 1000 }, fx))).toBe(JSON.stringify(a))
      expect(JSON.stringify(plan({ seed: 6, count: 1000 }, fx))).not.toBe(JSON.stringify(a))
      expect(new Set(a.map((r) => r.category))).toEqual(new Set(Object.keys(CATEGORIES)))
    },
    PLAN_TIMEOUT_MS
  )
  it(
    'holds the nesting depths and bombs the issue names',
    () => {
      // One round of both categories: every case of each is in it (more rounds repeat them).
      const sizes = roundSizes(1, fx)
      const count = (sizes.nesting ?? 0) + (sizes.bombs ?? 0)
      const all = plan({ seed: 1, count, categories: ['nesting', 'bombs'] }, fx)
      expect(new Set(all.map((r) => r.category))).toEqual(new Set(['nesting', 'bombs']))
      const bodies = all.map((r) => (typeof r.body === 'string' ? r.body : ''))
      expect(bodies.some((b) => b.startsWith('{"a":'.repeat(100_000)))).toBe(true)
      expect(bodies.some((b) => b.includes('{"a":'.repeat(5_000)))).toBe(true)
      expect(all.some((r) => r.label.includes('copy /data into itself x30'))).toBe(true)
    },
    PLAN_TIMEOUT_MS
  )
})
