/**
 * This Node process's readings (infra/process-readings.ts): a start before now, CPU time and
 * resident memory above zero, the open descriptors and their limit where /proc has them (Linux),
 * the limit parsed from /proc/self/limits; and processMetrics adding them and
 * edgeplane_build_info to a program's own families, as the agent and the relay serve them —
 * checked with `promtool check metrics` when promtool is installed.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { maxFdsOf, nodeProcessReadings, processMetrics } from '../../infra/process-readings.ts'
import { renderPrometheus } from '../../lib/metrics/prometheus-text.ts'
import { MetricsRegistry } from '../../lib/metrics/registry.ts'
import { parseExposition } from '../helpers/exposition.ts'
import { hasPromtool } from '../helpers/promtool.ts'

const promtool = hasPromtool()

describe('nodeProcessReadings', () => {
  it('reads this process', () => {
    const r = nodeProcessReadings()
    expect(r.startTimeSeconds).toBeGreaterThan(1_600_000_000)
    expect(r.startTimeSeconds).toBeLessThanOrEqual(Date.now() / 1000)
    expect(r.cpuSeconds).toBeGreaterThan(0)
    expect(r.residentMemoryBytes).toBeGreaterThan(0)
    if (existsSync('/proc/self/fd')) {
      expect(r.openFds).toBeGreaterThan(2)
      expect(r.maxFds).toBeGreaterThanOrEqual(r.openFds ?? 0)
    }
  })

  it('parses the open-files limit', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units',
      'Max processes             63413                63413                processes',
      'Max open files            1048576              1048576              files',
    ].join('\n')
    expect(maxFdsOf(limits)).toBe(1_048_576)
    expect(maxFdsOf('Max processes 5')).toBeUndefined()
  })
})

describe('processMetrics', () => {
  const registry = new MetricsRegistry()
  registry.inc('edgeplane_agent_polls_total', 'Desired-state requests.', { code: '200' })
  const text = renderPrometheus(processMetrics(registry.families.values()))

  it("adds the build info and the process series to the program's own", () => {
    const e = parseExposition(text)
    expect(e.value('edgeplane_agent_polls_total', { code: '200' })).toBe(1)
    expect(e.types.get('edgeplane_build_info')).toBe('gauge')
    for (const name of [
      'process_start_time_seconds',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
    ])
      expect(e.value(name)).toBeGreaterThan(0)
  })

  it.skipIf(!promtool)('passes promtool check metrics', () => {
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
    expect(`${checked.stdout}${checked.stderr}`.trim()).toBe('')
    expect(checked.status).toBe(0)
  })
})
