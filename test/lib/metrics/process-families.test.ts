/**
 * The standard process_* families from readings (lib/metrics/process-families.ts): one per
 * reading given, with Prometheus' own names and types (the CPU counter ends in _total), none for
 * a reading left out or not a number, a help text given for a name replacing the default; and
 * edgeplane_build_info carrying package.json's version, valid exposition text when rendered.
 */
import { describe, expect, it } from 'vitest'
import { BUILD_INFO, buildInfoFamily } from '../../../lib/metrics/build-info.ts'
import { processFamilies } from '../../../lib/metrics/process-families.ts'
import { renderPrometheus } from '../../../lib/metrics/prometheus-text.ts'
import pkg from '../../../package.json' with { type: 'json' }
import { parseExposition } from '../../helpers/exposition.ts'

describe('processFamilies', () => {
  it('renders every reading under its standard name and type', () => {
    const text = renderPrometheus(
      processFamilies({
        startTimeSeconds: 1_700_000_000.5,
        cpuSeconds: 1.25,
        residentMemoryBytes: 50_000_000,
        openFds: 21,
        maxFds: 1024,
      })
    )
    const e = parseExposition(text)
    expect(Object.fromEntries(e.types)).toEqual({
      process_start_time_seconds: 'gauge',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      process_open_fds: 'gauge',
      process_max_fds: 'gauge',
    })
    expect(e.value('process_start_time_seconds')).toBe(1_700_000_000.5)
    expect(e.value('process_cpu_seconds_total')).toBe(1.25)
    expect(e.value('process_max_fds')).toBe(1024)
  })

  it('leaves out what was not read, and takes a help text for a name', () => {
    const families = processFamilies(
      { startTimeSeconds: 10, cpuSeconds: Number.NaN },
      { process_start_time_seconds: 'of the isolate' }
    )
    expect(families.map((f) => [f.name, f.help])).toEqual([
      ['process_start_time_seconds', 'of the isolate'],
    ])
  })
})

describe('buildInfoFamily', () => {
  it("is 1 with package.json's version as its label", () => {
    const e = parseExposition(renderPrometheus([buildInfoFamily()]))
    expect(e.types.get(BUILD_INFO)).toBe('gauge')
    expect(e.samples).toEqual([{ name: BUILD_INFO, labels: { version: pkg.version }, value: 1 }])
  })
})
