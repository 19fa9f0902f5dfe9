import { describe, expect, it } from 'vitest'
import type { Problem, ReportResult } from '../../../lib/edge/protocol.ts'
import { acceptReport, BODY_BUDGET, planReport } from '../../../lib/edge-agent/report.ts'
import { emptyReportState, type ReportState } from '../../../lib/edge-agent/report-state.ts'
import type { StatusItem } from '../../../lib/edge-agent/status-collector.ts'
import type { UpsyncChanges } from '../../../lib/edge-agent/upsync-collector.ts'

const ref = (name: string) => ({
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespace: 'n',
  name,
})
const status = (name: string, hash: string): StatusItem => ({
  key: `apps/deployments/n/${name}`,
  hash,
  report: { ...ref(name), observedGeneration: 1, status: {} },
})
const cm = (name: string) => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace: 'n',
  name,
})
const noUpsync: UpsyncChanges = { apply: [], delete: [] }
const problem: Problem = { ...ref('x'), reason: 'ForeignObject', message: 'm' }
const T = 1_000_000
const fresh: ReportState = { ...emptyReportState(), lastHeartbeatMs: T }
const ok = (rejected: ReportResult['rejected'] = []): ReportResult => ({
  kind: 'ReportResult',
  accepted: 1,
  rejected,
})

describe('planReport', () => {
  it('sends nothing when nothing changed and no heartbeat is due', () => {
    expect(
      planReport({ statuses: [], upsync: noUpsync, problems: [], state: fresh, nowMs: T + 59_000 })
    ).toBeUndefined()
  })
  it('sends a bare heartbeat once a minute', () => {
    const plan = planReport({
      statuses: [],
      upsync: noUpsync,
      problems: [],
      state: fresh,
      nowMs: T + 60_000,
    })
    expect(plan?.report).toEqual({
      kind: 'Report',
      statuses: [],
      upsync: { apply: [], delete: [] },
      problems: [],
      heartbeat: true,
    })
  })
  it('sends a heartbeat as often as its heartbeat period says', () => {
    const plan = (nowMs: number) =>
      planReport({
        statuses: [],
        upsync: noUpsync,
        problems: [],
        state: fresh,
        nowMs,
        heartbeatMs: 5_000,
      })
    expect(plan(T + 4_999)).toBeUndefined()
    expect(plan(T + 5_000)?.report.heartbeat).toBe(true)
  })
  it('sends problems when they change, and again with each heartbeat', () => {
    const first = planReport({
      statuses: [],
      upsync: noUpsync,
      problems: [problem],
      state: fresh,
      nowMs: T,
    })
    expect(first?.report.problems).toEqual([problem])
    const state = acceptReport(fresh, first!, ok(), T)
    expect(
      planReport({ statuses: [], upsync: noUpsync, problems: [problem], state, nowMs: T + 1 })
    ).toBeUndefined()
    expect(
      planReport({ statuses: [], upsync: noUpsync, problems: [problem], state, nowMs: T + 60_000 })
        ?.report
    ).toMatchObject({ heartbeat: true, problems: [problem] })
  })
})

describe('acceptReport', () => {
  const upsync: UpsyncChanges = {
    apply: [
      {
        key: '/configmaps/n/a',
        ref: cm('a'),
        hash: 'ha',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
      },
    ],
    delete: [{ key: '/configmaps/n/gone', ref: cm('gone') }],
  }
  const state: ReportState = {
    ...fresh,
    upsynced: { '/configmaps/n/gone': { ref: cm('gone'), hash: 'hg' } },
  }
  const plan = () =>
    planReport({
      statuses: [status('a', 'h1'), status('b', 'h2')],
      upsync,
      problems: [],
      state,
      nowMs: T,
    })!

  it('records what was accepted', () => {
    expect(acceptReport(state, plan(), ok(), T)).toEqual({
      statuses: { 'apps/deployments/n/a': 'h1', 'apps/deployments/n/b': 'h2' },
      upsynced: { '/configmaps/n/a': { ref: cm('a'), hash: 'ha' } },
      problems: '',
      problemKeys: [],
      lastHeartbeatMs: T,
      rejected: {},
    })
  })
  it('leaves rejected refs unrecorded, a partial ref matching on the fields it names', () => {
    const byName = ok([
      { ref: { group: 'apps', resource: 'deployments', namespace: 'n', name: 'b' }, message: 'no' },
    ])
    expect(Object.keys(acceptReport(state, plan(), byName, T).statuses)).toEqual([
      'apps/deployments/n/a',
    ])
    const partial = acceptReport(
      state,
      plan(),
      ok([{ ref: { name: 'a', namespace: 'n' }, message: 'no' }]),
      T
    )
    expect(partial.statuses).toEqual({ 'apps/deployments/n/b': 'h2' })
    expect(partial.upsynced).toEqual({})
    const all = acceptReport(state, plan(), ok([{ ref: {}, message: 'bad report' }]), T)
    expect(all).toMatchObject({ statuses: {}, upsynced: state.upsynced })
  })
})

describe('rejected items', () => {
  const upsync: UpsyncChanges = {
    apply: [
      {
        key: '/configmaps/n/a',
        ref: cm('a'),
        hash: 'ha',
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } },
      },
    ],
    delete: [{ key: '/configmaps/n/gone', ref: cm('gone') }],
  }
  const input = (state: ReportState, nowMs: number, hash = 'h1') => ({
    statuses: [status('s', hash)],
    upsync,
    problems: [],
    state,
    nowMs,
  })

  it('are held back until they change or the next heartbeat', () => {
    const first = planReport(input(fresh, T))!
    const everything = ok([
      { ref: { name: 's' }, message: 'no' },
      { ref: { name: 'a' }, message: 'not served' },
      { ref: { name: 'gone' }, message: 'not ours' },
    ])
    const state = acceptReport(fresh, first, everything, T)
    expect(state.rejected).toEqual({
      's:apps/deployments/n/s': 'h1',
      'u:/configmaps/n/a': 'ha',
      'd:/configmaps/n/gone': '',
    })
    expect(planReport(input(state, T + 1))).toBeUndefined()
    expect(planReport(input(state, T + 2, 'h2'))?.statuses.map((s) => s.hash)).toEqual(['h2'])
    const beat = planReport(input(state, T + 60_000))!
    expect(beat.report).toMatchObject({
      heartbeat: true,
      statuses: [{ name: 's' }],
      upsync: { apply: [{ metadata: { name: 'a' } }], delete: [{ name: 'gone' }] },
    })
    // Taken this time: nothing is held any more.
    expect(acceptReport(state, beat, ok(), T + 60_000).rejected).toEqual({})
  })
})

describe('budget', () => {
  it('leaves out what does not fit for the next poll, and what never fits for good', () => {
    const big = (name: string, n: number): StatusItem => ({
      ...status(name, name),
      report: { ...ref(name), observedGeneration: 1, status: { pad: 'x'.repeat(n) } },
    })
    const plan = planReport({
      statuses: [big('a', 1_500_000), big('b', 1_000_000), big('c', 3_000_000), big('d', 10)],
      upsync: noUpsync,
      problems: [],
      state: fresh,
      nowMs: T,
    })
    expect(plan?.statuses.map((s) => s.report.name)).toEqual(['a', 'd'])
    expect(plan?.oversized).toEqual(['apps/deployments/n/c'])
  })

  it('counts problems and deletes first, so a report never outgrows what the center reads', () => {
    const problems = Array.from({ length: 1000 }, (_, i) => ({
      ...ref(`p${i}`),
      reason: 'ApplyFailed' as const,
      message: 'm'.repeat(1500),
    }))
    const deletes = Array.from({ length: 1000 }, (_, i) => ({ key: `d${i}`, ref: cm(`d${i}`) }))
    const plan = planReport({
      statuses: [status('a', 'a'), status('b', 'b')].map((s) => ({
        ...s,
        report: { ...s.report, status: { pad: 'x'.repeat(200_000) } },
      })),
      upsync: { apply: [], delete: deletes },
      problems,
      state: fresh,
      nowMs: T,
    })!
    expect(plan.report.problems).toHaveLength(1000)
    expect(plan.upsyncDelete).toHaveLength(1000)
    expect(plan.statuses.map((s) => s.report.name)).toEqual(['a'])
    expect(JSON.stringify(plan.report).length).toBeLessThan(BODY_BUDGET + 10_000)
  })
})
