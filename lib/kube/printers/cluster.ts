/**
 * Printers of networking, RBAC binding, scheduling, policy, autoscaling and coordination kinds:
 * Ingress (CLASS, HOSTS, ADDRESS, PORTS), IngressClass (CONTROLLER, PARAMETERS), RoleBinding and
 * ClusterRoleBinding (ROLE; wide USERS, GROUPS, SERVICEACCOUNTS), PriorityClass (VALUE,
 * GLOBAL-DEFAULT, PREEMPTIONPOLICY), PodDisruptionBudget (MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED
 * DISRUPTIONS), HorizontalPodAutoscaler (REFERENCE, TARGETS, MINPODS, MAXPODS, REPLICAS; see
 * hpa-targets.ts), Lease (HOLDER) and NetworkPolicy (POD-SELECTOR), each with AGE.
 */
import { AGE_COLUMN, ageOf, cellPrinter, column, NAME_COLUMN, nameOf } from './columns.ts'
import { dig, formatLabelSelector, int, isRecord, items, optInt, textOr } from './fields.ts'
import { hpaTargets } from './hpa-targets.ts'
import type { Printer } from './types.ts'

function hosts(ing: unknown): string {
  const rules = items(ing, 'spec.rules')
  const names: string[] = []
  let more = false
  for (const r of rules) {
    if (names.length === 3) more = true
    const host = textOr(r, 'host')
    if (!more && host) names.push(host)
  }
  if (names.length === 0) return '*'
  return more ? `${names.join(',')} + ${rules.length - 3} more...` : names.join(',')
}

function addresses(ing: unknown): string {
  const found = new Set<string>()
  for (const i of items(ing, 'status.loadBalancer.ingress')) {
    const addr = textOr(i, 'ip') || textOr(i, 'hostname')
    if (addr) found.add(addr)
  }
  return [...found].sort().join(',')
}

export const INGRESS_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column(
      'Class',
      'string',
      'The name of the IngressClass resource that should be used for additional configuration'
    ),
    column(
      'Hosts',
      'string',
      'Hosts that incoming requests are matched against before the ingress rule'
    ),
    column(
      'Address',
      'string',
      'Address is a list containing ingress points for the load-balancer'
    ),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    textOr(obj, 'spec.ingressClassName', '<none>'),
    hosts(obj),
    addresses(obj),
    items(obj, 'spec.tls').length > 0 ? '80, 443' : '80',
    ageOf(obj, ctx),
  ]
)

function classParameters(ic: unknown): string {
  const p = dig(ic, 'spec.parameters')
  if (!isRecord(p)) return '<none>'
  const group = textOr(p, 'apiGroup')
  return `${textOr(p, 'kind')}${group ? `.${group}` : ''}/${textOr(p, 'name')}`
}

export const INGRESS_CLASS_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), textOr(obj, 'spec.controller'), classParameters(obj), ageOf(obj, ctx)]
)

function subjects(binding: unknown): [string, string, string] {
  const users: string[] = []
  const groups: string[] = []
  const accounts: string[] = []
  for (const s of items(binding, 'subjects')) {
    const name = textOr(s, 'name')
    const kind = textOr(s, 'kind')
    if (kind === 'User') users.push(name)
    else if (kind === 'Group') groups.push(name)
    else if (kind === 'ServiceAccount') accounts.push(`${textOr(s, 'namespace')}/${name}`)
  }
  return [users.join(', '), groups.join(', '), accounts.join(', ')]
}

export const ROLE_BINDING_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column(
      'Role',
      'string',
      'RoleRef can reference a Role in the current namespace or a ClusterRole.'
    ),
    AGE_COLUMN,
    column('Users', 'string', 'Users in the roleBinding', 1),
    column('Groups', 'string', 'Groups in the roleBinding', 1),
    column('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', 1),
  ],
  (obj, ctx) => [
    nameOf(obj),
    `${textOr(obj, 'roleRef.kind')}/${textOr(obj, 'roleRef.name')}`,
    ageOf(obj, ctx),
    ...subjects(obj),
  ]
)

export const PRIORITY_CLASS_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Value', 'integer', 'The integer value of this priority class.'),
    column(
      'Global-Default',
      'boolean',
      'Whether this priority class is the default for pods without one.'
    ),
    AGE_COLUMN,
    column('PreemptionPolicy', 'string', 'The Policy for preempting pods with lower priority.'),
  ],
  (obj, ctx) => [
    nameOf(obj),
    int(obj, 'value'),
    dig(obj, 'globalDefault') === true,
    ageOf(obj, ctx),
    textOr(obj, 'preemptionPolicy', 'PreemptLowerPriority'),
  ]
)

/** An IntOrString field as kube prints it, N/A when unset. */
function intOrString(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A'
}

export const POD_DISRUPTION_BUDGET_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column(
      'Allowed Disruptions',
      'integer',
      'Calculated number of pods that may be disrupted at this time.'
    ),
    AGE_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    intOrString(dig(obj, 'spec.minAvailable')),
    intOrString(dig(obj, 'spec.maxUnavailable')),
    int(obj, 'status.disruptionsAllowed'),
    ageOf(obj, ctx),
  ]
)

export const HORIZONTAL_POD_AUTOSCALER_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Reference', 'string', 'The target resource being scaled.'),
    column('Targets', 'string', 'The metrics used to calculate the desired replica count.'),
    column('MinPods', 'string', 'The lower limit for the number of replicas.'),
    column('MaxPods', 'string', 'The upper limit for the number of replicas.'),
    column('Replicas', 'string', 'The current number of replicas.'),
    AGE_COLUMN,
  ],
  (obj, ctx) => {
    const min = optInt(obj, 'spec.minReplicas')
    return [
      nameOf(obj),
      `${textOr(obj, 'spec.scaleTargetRef.kind')}/${textOr(obj, 'spec.scaleTargetRef.name')}`,
      hpaTargets(obj),
      min === undefined ? '<unset>' : String(min),
      int(obj, 'spec.maxReplicas'),
      int(obj, 'status.currentReplicas'),
      ageOf(obj, ctx),
    ]
  }
)

export const LEASE_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Holder', 'string', 'The identity of the holder of the lease.'), AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), textOr(obj, 'spec.holderIdentity'), ageOf(obj, ctx)]
)

export const NETWORK_POLICY_PRINTER: Printer = cellPrinter(
  [NAME_COLUMN, column('Pod-Selector', 'string', 'The pods this policy applies to.'), AGE_COLUMN],
  (obj, ctx) => [nameOf(obj), formatLabelSelector(dig(obj, 'spec.podSelector')), ageOf(obj, ctx)]
)

/** These printers by `group/kind`. */
export const clusterPrinters: Record<string, Printer> = {
  'networking.k8s.io/Ingress': INGRESS_PRINTER,
  'networking.k8s.io/IngressClass': INGRESS_CLASS_PRINTER,
  'networking.k8s.io/NetworkPolicy': NETWORK_POLICY_PRINTER,
  'rbac.authorization.k8s.io/RoleBinding': ROLE_BINDING_PRINTER,
  'rbac.authorization.k8s.io/ClusterRoleBinding': ROLE_BINDING_PRINTER,
  'scheduling.k8s.io/PriorityClass': PRIORITY_CLASS_PRINTER,
  'policy/PodDisruptionBudget': POD_DISRUPTION_BUDGET_PRINTER,
  'autoscaling/HorizontalPodAutoscaler': HORIZONTAL_POD_AUTOSCALER_PRINTER,
  'coordination.k8s.io/Lease': LEASE_PRINTER,
}
