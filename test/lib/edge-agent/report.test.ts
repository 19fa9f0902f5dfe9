import { describe, expect, it } from 'vitest'
import type { Problem, ReportResult } from '../../../lib/edge/protocol.ts'
import { acceptReport, planReport } from '../../../lib/edge-agent/report.ts'
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
})
