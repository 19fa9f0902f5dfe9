/**
 * How the agent says its polls went (lib/edge-agent/poll-notes.ts), around a fake center client
 * and an injected clock: before any answer only the version, interval and hold asked; a plain
 * answer (200 or 304) makes it `plain` at that time; a held answer with Preference-Applied makes
 * it `held`, one without (an older center) `plain`; a failed poll changes nothing; reports go
 * through untouched; a client without held polls gets none.
 */
import { describe, expect, it } from 'vitest'
import type { Report } from '../../../lib/edge/protocol.ts'
import { AGENT_VERSION } from '../../../lib/edge-agent/agent-info.ts'
import type { CenterClient, HeldAnswer } from '../../../lib/edge-agent/center-client.ts'
import { createPollNotes } from '../../../lib/edge-agent/poll-notes.ts'

const T0 = Date.parse('2031-02-03T04:05:06Z')

function fakeCenter(next: { plain?: 'unchanged' | 'fail'; held?: HeldAnswer | 'fail' }) {
  const reports: Report[] = []
  const client: CenterClient = {
    async getDesired() {
      if (next.plain === 'fail') throw Object.assign(new Error('unreachable'), { code: 0 })
      return { kind: 'unchanged' }
    },
    async holdDesired() {
      if (next.held === 'fail' || !next.held) throw new Error('hold failed')
      return next.held
    },
    async postReport(r) {
      reports.push(r)
      return { kind: 'ReportResult', accepted: 0, rejected: [] }
    },
  }
  return { client, reports }
}

describe('poll notes', () => {
  const clock = { ms: T0 }
  const notes = createPollNotes({
    pollIntervalMs: 15_000,
    holdSeconds: 300,
    now: () => new Date(clock.ms),
  })
  const next: { plain?: 'unchanged' | 'fail'; held?: HeldAnswer | 'fail' } = {}
  const fake = fakeCenter(next)
  const center = notes.center(fake.client)
  const base = { version: AGENT_VERSION, pollIntervalSeconds: 15, holdSeconds: 300 }

  it('says the hold it asks and no poll before the first answer', () => {
    expect(notes.info()).toEqual(base)
  })

  it('says plain, at the time of the answer, after a plain poll', async () => {
    clock.ms = T0 + 1_000
    await center.getDesired(3)
    clock.ms = T0 + 9_000 // the report goes later: the poll's time is the answer's
    expect(notes.info()).toEqual({
      ...base,
      pollMode: 'plain',
      lastPollAt: '2031-02-03T04:05:07.000Z',
    })
  })

  it('says held after a held answer the center held, plain after one it did not', async () => {
    next.held = { kind: 'unchanged', heldSeconds: 300 }
    clock.ms = T0 + 301_000
    expect(await center.holdDesired?.(3, { waitSeconds: 300 })).toEqual(next.held)
    expect(notes.info()).toMatchObject({
      pollMode: 'held',
      lastPollAt: '2031-02-03T04:10:07.000Z',
    })
    next.held = { kind: 'unchanged', heldSeconds: undefined }
    clock.ms = T0 + 302_000
    await center.holdDesired?.(3, { waitSeconds: 300 })
    expect(notes.info()).toMatchObject({
      pollMode: 'plain',
      lastPollAt: '2031-02-03T04:10:08.000Z',
    })
  })

  it('changes nothing on a failed poll', async () => {
    const before = notes.info()
    clock.ms = T0 + 400_000
    next.plain = 'fail'
    next.held = 'fail'
    await expect(center.getDesired(3)).rejects.toThrow('unreachable')
    await expect(center.holdDesired?.(3, { waitSeconds: 300 })).rejects.toThrow('hold failed')
    expect(notes.info()).toEqual(before)
  })

  it('passes reports through, and offers no held poll the client lacks', async () => {
    const report: Report = {
      kind: 'Report',
      statuses: [],
      upsync: { apply: [], delete: [] },
      problems: [],
      heartbeat: true,
    }
    expect(await center.postReport(report)).toMatchObject({ kind: 'ReportResult' })
    expect(fake.reports).toEqual([report])
    const { holdDesired: _, ...plainOnly } = fakeCenter({}).client
    expect(notes.center(plainOnly).holdDesired).toBeUndefined()
  })

  it('says nothing of an interval the protocol cannot carry, and no hold out of bounds', () => {
    expect(createPollNotes({ pollIntervalMs: 0, holdSeconds: 0 }).info()).toBeUndefined()
    const odd = createPollNotes({ pollIntervalMs: 15_000, holdSeconds: 1000, version: '0.1.0' })
    expect(odd.info()).toEqual({ version: '0.1.0', pollIntervalSeconds: 15 })
  })
})
