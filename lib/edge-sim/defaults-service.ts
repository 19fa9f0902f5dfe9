/**
 * What kube's Service registry allocates, on top of the declared Service defaults
 * (lib/kube/defaults/service-defaults.ts: type, protocols, targetPorts, traffic policies, which
 * the object already has here): unless ExternalName a clusterIP (allocated from the edge's
 * 10.96.0.0/12, or the one asked for, checked and reserved; `None` for headless), clusterIPs,
 * ipFamilies [IPv4], ipFamilyPolicy SingleStack; NodePort and LoadBalancer Services get nodePorts
 * (30000-32767). On update the allocated values of the stored Service carry over when the write
 * leaves them out, as kube's Service storage does, and a clusterIP may not change once set.
 */
import { invalid, type StatusCause } from '../errors.ts'
import type { DefaultingRequest } from '../hub/deps.ts'
import type { KubeObject } from '../kube/types.ts'
import {
  type AllocatorDeps,
  allocateClusterIp,
  allocateNodePort,
  inServiceRange,
  NODE_PORT_MAX,
  NODE_PORT_MIN,
  reserveClusterIp,
  reserveNodePort,
  SERVICE_CIDR,
} from './allocator.ts'
import { child, isObj, type Obj, objects, peek, setDefault } from './json.ts'

function allocatorDeps(req: DefaultingRequest): AllocatorDeps {
  return {
    kv: req.deps.kv,
    now: req.deps.now,
    service: (namespace, name) =>
      req.deps.objects.get({
        cluster: req.space.id,
        group: '',
        resource: 'services',
        namespace,
        name,
      }),
  }
}

function rejected(obj: KubeObject, cause: StatusCause): Error {
  return invalid('services', { kind: 'Service', name: obj.metadata.name ?? '' }, [
    { reason: 'FieldValueInvalid', ...cause },
  ])
}

async function clusterIpDefaults(
  req: DefaultingRequest,
  obj: KubeObject,
  spec: Obj,
  oldSpec: Obj | undefined
): Promise<void> {
  const deps = allocatorDeps(req)
  const who = { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }
  const oldIp = typeof oldSpec?.clusterIP === 'string' ? oldSpec.clusterIP : ''
  if (!spec.clusterIP && oldIp) {
    spec.clusterIP = oldIp
    if (spec.clusterIPs === undefined && Array.isArray(oldSpec?.clusterIPs))
      spec.clusterIPs = oldSpec.clusterIPs
  }
  const ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : ''
  if (oldIp && ip !== oldIp)
    throw rejected(obj, {
      field: 'spec.clusterIPs[0]',
      message: `Invalid value: ${JSON.stringify([ip])}: may not change once set`,
    })
  if (!ip) spec.clusterIP = await allocateClusterIp(deps, who, req.dryRun)
  else if (ip !== 'None' && ip !== oldIp) {
    const why = !inServiceRange(ip)
      ? `provided IP (${ip}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}`
      : !req.dryRun && !(await reserveClusterIp(deps, ip, who))
        ? 'provided IP is already allocated'
        : ''
    if (why)
      throw rejected(obj, {
        field: 'spec.clusterIPs',
        message: `Invalid value: ${JSON.stringify([ip])}: failed to allocate IP ${ip}: ${why}`,
      })
  }
  setDefault(spec, 'clusterIPs', [spec.clusterIP])
  setDefault(spec, 'ipFamilies', ['IPv4'])
  setDefault(spec, 'ipFamilyPolicy', 'SingleStack')
}

async function nodePortDefaults(
  req: DefaultingRequest,
  obj: KubeObject,
  spec: Obj,
  oldSpec: Obj | undefined
): Promise<void> {
  const deps = allocatorDeps(req)
  const who = { namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' }
  const oldPorts = objects(oldSpec, 'ports')
  for (const [i, port] of objects(spec, 'ports').entries()) {
    const protocol = String(port.protocol)
    const before = oldPorts.find((p) => p.port === port.port && p.protocol === protocol)?.nodePort
    if (port.nodePort === undefined && before !== undefined) port.nodePort = before
    if (port.nodePort === undefined) {
      port.nodePort = await allocateNodePort(deps, protocol, who, req.dryRun)
      continue
    }
    if (port.nodePort === before) continue
    const n = Number(port.nodePort)
    const why =
      n < NODE_PORT_MIN || n > NODE_PORT_MAX
        ? `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`
        : !req.dryRun && !(await reserveNodePort(deps, n, protocol, who))
          ? 'provided port is already allocated'
          : ''
    if (why)
      throw rejected(obj, {
        field: `spec.ports[${i}].nodePort`,
        message: `Invalid value: ${n}: ${why}`,
      })
  }
}

/** A Service's allocations, in place (its declared defaults already filled). */
export async function serviceAllocations(req: DefaultingRequest, obj: KubeObject): Promise<void> {
  const spec = child(obj as Obj, 'spec')
  if (spec.type === 'ExternalName') return
  const oldSpec = peek(req.old, 'spec')
  const sameType = isObj(oldSpec) && oldSpec.type !== 'ExternalName'
  await clusterIpDefaults(req, obj, spec, sameType ? oldSpec : undefined)
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer')
    await nodePortDefaults(req, obj, spec, oldSpec)
}
