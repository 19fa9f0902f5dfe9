/**
 * Printers of core (`v1`) kinds other than Pod and Event: Service (TYPE, CLUSTER-IP, EXTERNAL-IP,
 * PORT(S) as "80/TCP" or "80:30080/TCP", wide SELECTOR), Namespace (STATUS), ConfigMap and Secret
 * (DATA, Secret TYPE), ServiceAccount (SECRETS), Node (STATUS, ROLES, VERSION; wide addresses and
 * system info), PersistentVolumeClaim and ResourceQuota. Values kube defaults on create (Service
 * type ClusterIP, Secret type Opaque, Namespace phase Active) are shown when the object lacks them.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import {
  dig,
  formatLabels,
  int,
  isRecord,
  items,
  keyCount,
  record,
  text,
  textOr,
} from './fields.ts'
import type { Printer } from './types.ts'

function loadBalancerAddresses(svc: unknown): string[] {
  const found = new Set<string>()
  for (const i of items(svc, 'status.loadBalancer.ingress')) {
    const addr = textOr(i, 'ip') || textOr(i, 'hostname')
    if (addr) found.add(addr)
  }
  return [...found].sort()
}

function externalIP(svc: unknown): string {
  const external = items(svc, 'spec.externalIPs').map(String)
  switch (textOr(svc, 'spec.type', 'ClusterIP')) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>'
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...external]
      return all.length > 0 ? all.join(',') : '<pending>'
    }
    case 'ExternalName':
      return textOr(svc, 'spec.externalName')
    default:
      return '<unknown>'
  }
}

function ports(svc: unknown): string {
  const parts = items(svc, 'spec.ports').map((p) => {
    const protocol = textOr(p, 'protocol', 'TCP')
    const nodePort = int(p, 'nodePort')
    return nodePort > 0
      ? `${int(p, 'port')}:${nodePort}/${protocol}`
      : `${int(p, 'port')}/${protocol}`
  })
  return parts.length > 0 ? parts.join(',') : '<none>'
}

function clusterIP(svc: unknown): string {
  const first = items(svc, 'spec.clusterIPs')[0]
  if (typeof first === 'string' && first) return first
  return textOr(svc, 'spec.clusterIP') || '<none>'
}

export const SERVICE_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Type', 'string', 'How the Service is exposed.'),
    column('Cluster-IP', 'string', 'The IP address of the service.'),
    column('External-IP', 'string', 'External IP addresses of the service.'),
    column('Port(s)', 'string', 'The ports exposed by this service.'),
    AGE_COLUMN,
    column('Selector', 'string', 'Route service traffic to pods with these labels.', 1),
  ],
  (obj, ctx) => [
    nameOf(obj),
    textOr(obj, 'spec.type', 'ClusterIP'),
    clusterIP(obj),
    externalIP(obj),
    ports(obj),
    ageOf(obj, ctx),
    formatLabels(dig(obj, 'spec.selector')),
  ]
)

export const NAMESPACE_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), textOr(obj, 'status.phase', 'Active'), ageOf(obj, ctx)]
)

export const CONFIG_MAP_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Data', 'string', 'The number of data entries.'), AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), keyCount(obj, 'data') + keyCount(obj, 'binaryData'), ageOf(obj, ctx)]
)

export const SECRET_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'string', 'The number of data entries.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), textOr(obj, 'type', 'Opaque'), keyCount(obj, 'data'), ageOf(obj, ctx)]
)

export const SERVICE_ACCOUNT_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Secrets', 'string', 'The number of secrets listed.'), AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), items(obj, 'secrets').length, ageOf(obj, ctx)]
)

function nodeStatus(node: unknown): string {
  const ready = items(node, 'status.conditions').find((c) => isRecord(c) && c.type === 'Ready')
  const status = [isRecord(ready) ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown']
  if (dig(node, 'spec.unschedulable') === true) status.push('SchedulingDisabled')
  return status.join(',')
}

function nodeRoles(node: unknown): string {
  const roles = new Set<string>()
  for (const [k, v] of Object.entries(record(node, 'metadata.labels'))) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length)
      if (role) roles.add(role)
    } else if (k === 'kubernetes.io/role' && typeof v === 'string' && v) roles.add(v)
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>'
}

function nodeAddress(node: unknown, type: string): string {
  const a = items(node, 'status.addresses').find((a) => isRecord(a) && a.type === type)
  return textOr(a, 'address') || '<none>'
}

const unknownIfEmpty = (v: string) => v || '<unknown>'

export const NODE_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'string', 'The internal IP of the node.', 1),
    column('External-IP', 'string', 'The external IP of the node.', 1),
    column('OS-Image', 'string', 'OS Image reported by the node.', 1),
    column('Kernel-Version', 'string', 'Kernel Version reported by the node.', 1),
    column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node.', 1),
  ],
  (obj, ctx) => [
    nameOf(obj),
    nodeStatus(obj),
    nodeRoles(obj),
    ageOf(obj, ctx),
    textOr(obj, 'status.nodeInfo.kubeletVersion'),
    nodeAddress(obj, 'InternalIP'),
    nodeAddress(obj, 'ExternalIP'),
    unknownIfEmpty(textOr(obj, 'status.nodeInfo.osImage')),
    unknownIfEmpty(textOr(obj, 'status.nodeInfo.kernelVersion')),
    unknownIfEmpty(textOr(obj, 'status.nodeInfo.containerRuntimeVersion')),
  ]
)

const ACCESS_MODES: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
]

/** `RWO,RWX` in kube's fixed order. */
export function accessModes(modes: unknown[]): string {
  return ACCESS_MODES.filter(([mode]) => modes.includes(mode))
    .map(([, short]) => short)
    .join(',')
}

function claimCells(pvc: unknown): [string, string] {
  if (!textOr(pvc, 'spec.volumeName')) return ['', '']
  return [textOr(pvc, 'status.capacity.storage'), accessModes(items(pvc, 'status.accessModes'))]
}

export const PERSISTENT_VOLUME_CLAIM_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Status', 'string', 'The phase of the claim.'),
    column('Volume', 'string', 'The binding reference to the PersistentVolume.'),
    column('Capacity', 'string', 'The actual resources of the underlying volume.'),
    column('Access Modes', 'string', 'The actual access modes the volume has.'),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    column('VolumeMode', 'string', 'What type of volume is required by the claim.', 1),
  ],
  (obj, ctx) => [
    nameOf(obj),
    text(obj, 'metadata.deletionTimestamp')
      ? 'Terminating'
      : textOr(obj, 'status.phase', 'Pending'),
    textOr(obj, 'spec.volumeName'),
    ...claimCells(obj),
    obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
      textOr(obj, 'spec.storageClassName'),
    textOr(obj, 'spec.volumeAttributesClassName', '<unset>'),
    ageOf(obj, ctx),
    textOr(obj, 'spec.volumeMode', '<unset>'),
  ]
)

function quotaCells(quota: unknown): [string, string] {
  const hard = record(quota, 'status.hard')
  const used = record(quota, 'status.used')
  const requests: string[] = []
  const limits: string[] = []
  for (const name of Object.keys(hard).sort()) {
    const entry = `${name}: ${String(used[name] ?? '0')}/${String(hard[name])}`
    ;(name.split('.')[0] === 'limits' && name.includes('.') ? limits : requests).push(entry)
  }
  return [requests.join(', '), limits.join(', ')]
}

export const RESOURCE_QUOTA_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column(
      'Request',
      'string',
      'Request represents a minimum amount of cpu/memory that a container may consume.'
    ),
    column(
      'Limit',
      'string',
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'
    ),
    AGE_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), ...quotaCells(obj), ageOf(obj, ctx)]
)

/** The core printers by `group/kind` (core group: empty). */
export const corePrinters: Record<string, Printer> = {
  '/Service': SERVICE_PRINTER,
  '/Namespace': NAMESPACE_PRINTER,
  '/ConfigMap': CONFIG_MAP_PRINTER,
  '/Secret': SECRET_PRINTER,
  '/ServiceAccount': SERVICE_ACCOUNT_PRINTER,
  '/Node': NODE_PRINTER,
  '/PersistentVolumeClaim': PERSISTENT_VOLUME_CLAIM_PRINTER,
  '/ResourceQuota': RESOURCE_QUOTA_PRINTER,
}
