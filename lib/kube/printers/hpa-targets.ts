/**
 * The TARGETS cell of a HorizontalPodAutoscaler, as kube writes it: one "current/target" entry per
 * metric, in spec order ("cpu: 40%/80%", "cpu: 250m/500m", "1k/2k (avg)" for an average external
 * or object target, "<unknown>" before the controller reports a value, "<auto>" for a utilization
 * target left unset), the first two joined by ", " and the rest counted as "+ N more...". An
 * autoscaling/v1 object's targetCPUUtilizationPercentage reads as a cpu utilization metric.
 */
import { dig, isRecord, items, type JsonRecord, text } from './fields.ts'

const quantity = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined

const percent = (v: unknown): string | undefined =>
  typeof v === 'number' ? `${Math.trunc(v)}%` : undefined

/** Current and target of a value-or-average metric (External, Object). */
function valueOrAverage(target: unknown, current: unknown): string {
  const avg = quantity(dig(target, 'averageValue'))
  if (avg !== undefined)
    return `${quantity(dig(current, 'averageValue')) ?? '<unknown>'}/${avg} (avg)`
  return `${quantity(dig(current, 'value')) ?? '<unknown>'}/${quantity(dig(target, 'value')) ?? ''}`
}

/** Current and target of a resource metric, prefixed with the resource name. */
function resource(spec: unknown, status: unknown): string {
  const name = text(spec, 'name') ?? ''
  const avg = quantity(dig(spec, 'target.averageValue'))
  if (avg !== undefined)
    return `${name}: ${quantity(dig(status, 'current.averageValue')) ?? '<unknown>'}/${avg}`
  const current = percent(dig(status, 'current.averageUtilization')) ?? '<unknown>'
  const target = percent(dig(spec, 'target.averageUtilization')) ?? '<auto>'
  return `${name}: ${current}/${target}`
}

function metric(spec: JsonRecord, status: unknown): string {
  switch (spec.type) {
    case 'External':
      return valueOrAverage(dig(spec, 'external.target'), dig(status, 'external.current'))
    case 'Object':
      return valueOrAverage(dig(spec, 'object.target'), dig(status, 'object.current'))
    case 'Pods':
      return `${quantity(dig(status, 'pods.current.averageValue')) ?? '<unknown>'}/${quantity(dig(spec, 'pods.target.averageValue')) ?? ''}`
    case 'Resource':
      return resource(spec.resource, dig(status, 'resource'))
    case 'ContainerResource':
      return resource(spec.containerResource, dig(status, 'containerResource'))
    default:
      return '<unknown type>'
  }
}

/** autoscaling/v1's single cpu target, as the equivalent v2 metric and status. */
function v1Metrics(hpa: unknown): { specs: JsonRecord[]; statuses: unknown[] } {
  const target = dig(hpa, 'spec.targetCPUUtilizationPercentage')
  if (typeof target !== 'number') return { specs: [], statuses: [] }
  const current = dig(hpa, 'status.currentCPUUtilizationPercentage')
  return {
    specs: [
      { type: 'Resource', resource: { name: 'cpu', target: { averageUtilization: target } } },
    ],
    statuses: [{ resource: { current: { averageUtilization: current ?? null } } }],
  }
}

export function hpaTargets(hpa: unknown): string {
  let specs = items(hpa, 'spec.metrics').filter(isRecord)
  let statuses = items(hpa, 'status.currentMetrics')
  if (specs.length === 0) ({ specs, statuses } = v1Metrics(hpa))
  if (specs.length === 0) return '<none>'
  const all = specs.map((s, i) => metric(s, statuses[i]))
  const shown = all.slice(0, 2).join(', ')
  return all.length > 2 ? `${shown} + ${all.length - 2} more...` : shown
}
