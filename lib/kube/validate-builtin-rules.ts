/**
 * Value rules of the most used built-in kinds, the mistakes kube rejects most often: ConfigMap and
 * Secret keys, base64 and size; containers (present, named, unique, image on Pods); restart
 * policies (Always for workload controllers, OnFailure/Never for Jobs); workload selectors
 * (required, non-empty, matching the template labels); Service type, ports and protocols.
 */
import type { StatusCause } from '../errors.ts'
import { configKeyErrors, dnsLabelErrors } from './names.ts'
import {
  asArray,
  asRecord,
  causesFromMessages,
  childPath,
  duplicateCause,
  indexPath,
  invalidCause,
  keyPath,
  notSupportedCause,
  requiredCause,
  tooLongCause,
} from './validate-util.ts'

type Obj = Record<string, unknown>
const MAX_DATA_BYTES = 1024 * 1024
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

function dataRules(obj: Obj, fields: string[], base64Fields: string[], out: StatusCause[]): void {
  const seen = new Map<string, string>()
  let size = 0
  for (const field of fields) {
    for (const [k, v] of Object.entries(asRecord(obj[field]) ?? {})) {
      out.push(...causesFromMessages(field, k, configKeyErrors(k)))
      const other = seen.get(k)
      if (other && other !== field)
        out.push(invalidCause(field, k, `duplicate of key present in ${other}`))
      seen.set(k, field)
      if (typeof v !== 'string') continue
      size += k.length + v.length
      if (base64Fields.includes(field) && !BASE64.test(v)) {
        out.push(invalidCause(keyPath(field, k), '<value omitted>', 'illegal base64 data'))
      }
    }
  }
  if (size > MAX_DATA_BYTES) out.push(tooLongCause(fields[0] ?? 'data', MAX_DATA_BYTES))
}

function expressionMatches(e: unknown, labels: Obj): boolean {
  const expr = asRecord(e) ?? {}
  const key = String(expr.key)
  const values = (asArray(expr.values) ?? []).map(String)
  const has = Object.hasOwn(labels, key)
  const inValues = has && values.includes(String(labels[key]))
  switch (expr.operator) {
    case 'In':
      return inValues
    case 'NotIn':
      return !inValues
    case 'Exists':
      return has
    case 'DoesNotExist':
      return !has
    default:
      return false
  }
}

/** Does a label map satisfy a LabelSelector (matchLabels and matchExpressions)? */
export function selectorMatches(selector: Obj, labels: Obj): boolean {
  const matchLabels = Object.entries(asRecord(selector.matchLabels) ?? {})
  if (matchLabels.some(([k, v]) => labels[k] !== v)) return false
  return (asArray(selector.matchExpressions) ?? []).every((e) => expressionMatches(e, labels))
}

function containerRules(spec: Obj, path: string, requireImage: boolean, out: StatusCause[]): void {
  const names = new Set<string>()
  for (const list of ['initContainers', 'containers']) {
    const containers = asArray(spec[list])
    if (list === 'containers' && (!containers || containers.length === 0)) {
      out.push(requiredCause(childPath(path, 'containers')))
      continue
    }
    ;(containers ?? []).forEach((c, i) => {
      const ctr = asRecord(c) ?? {}
      const field = indexPath(childPath(path, list), i)
      const name = ctr.name
      if (typeof name !== 'string' || name === '') out.push(requiredCause(`${field}.name`))
      else {
        out.push(...causesFromMessages(`${field}.name`, name, dnsLabelErrors(name)))
        if (names.has(name)) out.push(duplicateCause(`${field}.name`, name))
        names.add(name)
      }
      if (requireImage && (typeof ctr.image !== 'string' || ctr.image.trim() === '')) {
        out.push(requiredCause(`${field}.image`))
      }
    })
  }
}

function podSpecRules(
  spec: unknown,
  path: string,
  opts: { requireImage: boolean; restart: string[] },
  out: StatusCause[]
): void {
  const s = asRecord(spec)
  if (!s) {
    out.push(requiredCause(path))
    return
  }
  containerRules(s, path, opts.requireImage, out)
  const policy = s.restartPolicy ?? 'Always'
  if (!opts.restart.includes(String(policy))) {
    out.push(notSupportedCause(childPath(path, 'restartPolicy'), policy, opts.restart))
  }
}

function templateRules(spec: Obj, path: string, restart: string[], out: StatusCause[]): Obj {
  const template = asRecord(spec.template)
  if (!template) {
    out.push(requiredCause(childPath(path, 'template')))
    return {}
  }
  podSpecRules(template.spec, `${path}.template.spec`, { requireImage: false, restart }, out)
  return asRecord(asRecord(template.metadata)?.labels) ?? {}
}

function workloadRules(obj: Obj, kind: string, out: StatusCause[]): void {
  const spec = asRecord(obj.spec)
  if (!spec) {
    out.push(requiredCause('spec'))
    return
  }
  const labels = templateRules(spec, 'spec', ['Always'], out)
  const selector = asRecord(spec.selector)
  if (!selector) {
    out.push(requiredCause('spec.selector'))
    return
  }
  const empty =
    Object.keys(asRecord(selector.matchLabels) ?? {}).length === 0 &&
    (asArray(selector.matchExpressions) ?? []).length === 0
  if (empty)
    out.push(
      invalidCause('spec.selector', selector, `empty selector is invalid for ${kind.toLowerCase()}`)
    )
  else if (!selectorMatches(selector, labels)) {
    out.push(
      invalidCause(
        'spec.template.metadata.labels',
        labels,
        '`selector` does not match template `labels`'
      )
    )
  }
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']
const PROTOCOLS = ['SCTP', 'TCP', 'UDP']

function serviceRules(obj: Obj, out: StatusCause[]): void {
  const spec = asRecord(obj.spec) ?? {}
  const type = spec.type ?? 'ClusterIP'
  if (!SERVICE_TYPES.includes(String(type)))
    out.push(notSupportedCause('spec.type', type, SERVICE_TYPES))
  if (type === 'ExternalName' && !spec.externalName) out.push(requiredCause('spec.externalName'))
  const ports = asArray(spec.ports) ?? []
  if (ports.length === 0 && type !== 'ExternalName' && spec.clusterIP !== 'None')
    out.push(requiredCause('spec.ports'))
  const names = new Set<string>()
  ports.forEach((p, i) => {
    const port = asRecord(p) ?? {}
    const field = indexPath('spec.ports', i)
    if (typeof port.port !== 'number') out.push(requiredCause(`${field}.port`))
    else if (port.port < 1 || port.port > 65535) {
      out.push(invalidCause(`${field}.port`, port.port, 'must be between 1 and 65535, inclusive'))
    }
    if (port.protocol !== undefined && !PROTOCOLS.includes(String(port.protocol))) {
      out.push(notSupportedCause(`${field}.protocol`, port.protocol, PROTOCOLS))
    }
    const name = typeof port.name === 'string' ? port.name : ''
    if (ports.length > 1 && name === '') out.push(requiredCause(`${field}.name`))
    if (name !== '' && names.has(name)) out.push(duplicateCause(`${field}.name`, name))
    names.add(name)
  })
}

const JOB_RESTART = ['OnFailure', 'Never']

/** Value rules for built-in kinds (by `<group>/<Kind>`); other kinds have none here. */
export function builtinRuleCauses(group: string, kind: string, obj: Obj): StatusCause[] {
  const out: StatusCause[] = []
  const spec = asRecord(obj.spec) ?? {}
  switch (`${group}/${kind}`) {
    case '/ConfigMap':
      dataRules(obj, ['data', 'binaryData'], ['binaryData'], out)
      break
    case '/Secret':
      dataRules(obj, ['data', 'stringData'], ['data'], out)
      break
    case '/Pod':
      podSpecRules(
        obj.spec,
        'spec',
        { requireImage: true, restart: ['Always', 'OnFailure', 'Never'] },
        out
      )
      break
    case '/Service':
      serviceRules(obj, out)
      break
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
      workloadRules(obj, kind, out)
      break
    case 'batch/Job':
      templateRules(spec, 'spec', JOB_RESTART, out)
      break
    case 'batch/CronJob': {
      if (typeof spec.schedule !== 'string' || spec.schedule === '')
        out.push(requiredCause('spec.schedule'))
      const jobSpec = asRecord(asRecord(spec.jobTemplate)?.spec)
      if (!jobSpec) out.push(requiredCause('spec.jobTemplate.spec'))
      else templateRules(jobSpec, 'spec.jobTemplate.spec', JOB_RESTART, out)
      break
    }
  }
  return out
}
