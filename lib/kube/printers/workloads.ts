/**
 * Printers of the apps workloads (and the core ReplicationController), with kube's columns:
 * Deployment READY "ready/desired", UP-TO-DATE, AVAILABLE; ReplicaSet and ReplicationController
 * DESIRED, CURRENT, READY; StatefulSet READY "ready/desired"; DaemonSet DESIRED, CURRENT, READY,
 * UP-TO-DATE, AVAILABLE, NODE SELECTOR; all with AGE and the wide CONTAINERS, IMAGES (and
 * SELECTOR). Unset spec.replicas counts as 1, the value kube defaults it to.
 */
import {
  AGE_COLUMN,
  ageOf,
  CONTAINERS_COLUMN,
  cellPrinter,
  column,
  IMAGES_COLUMN,
  NAME_COLUMN,
  nameOf,
  SELECTOR_DESCRIPTION,
} from './columns.ts'
import {
  containerCells,
  dig,
  formatLabelSelector,
  formatLabels,
  int,
  items,
  optInt,
  selectorString,
} from './fields.ts'
import type { Printer } from './types.ts'

const SELECTOR_COLUMN = column('Selector', 'string', SELECTOR_DESCRIPTION, 1)
const templateCells = (obj: unknown) => containerCells(items(obj, 'spec.template.spec.containers'))
const desired = (obj: unknown) => optInt(obj, 'spec.replicas') ?? 1
const readyOfDesired = (obj: unknown) => `${int(obj, 'status.readyReplicas')}/${desired(obj)}`

export const DEPLOYMENT_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column(
      'Up-to-date',
      'string',
      'Total number of non-terminated pods that have the desired template spec.'
    ),
    column(
      'Available',
      'string',
      'Total number of available pods (ready for at least minReadySeconds).'
    ),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    readyOfDesired(obj),
    int(obj, 'status.updatedReplicas'),
    int(obj, 'status.availableReplicas'),
    ageOf(obj, ctx),
    ...templateCells(obj),
    selectorString(dig(obj, 'spec.selector')),
  ]
)

const replicaColumns = [
  NAME_COLUMN,
  column('Desired', 'integer', 'Number of desired pods.'),
  column('Current', 'integer', 'The most recently observed number of replicas.'),
  column('Ready', 'integer', 'The number of pods targeted that have a Ready condition.'),
  AGE_COLUMN,
  CONTAINERS_COLUMN,
  IMAGES_COLUMN,
  SELECTOR_COLUMN,
]

export const REPLICA_SET_PRINTER: Printer = cellPrinter(replicaColumns, (obj, ctx) => [
  nameOf(obj),
  desired(obj),
  int(obj, 'status.replicas'),
  int(obj, 'status.readyReplicas'),
  ageOf(obj, ctx),
  ...templateCells(obj),
  formatLabelSelector(dig(obj, 'spec.selector')),
])

export const REPLICATION_CONTROLLER_PRINTER: Printer = cellPrinter(replicaColumns, (obj, ctx) => [
  nameOf(obj),
  desired(obj),
  int(obj, 'status.replicas'),
  int(obj, 'status.readyReplicas'),
  ageOf(obj, ctx),
  ...templateCells(obj),
  formatLabels(dig(obj, 'spec.selector')),
])

export const STATEFUL_SET_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
  ],
  (obj, ctx) => [nameOf(obj), readyOfDesired(obj), ageOf(obj, ctx), ...templateCells(obj)]
)

export const DAEMON_SET_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column(
      'Desired',
      'integer',
      'The total number of nodes that should be running the daemon pod.'
    ),
    column('Current', 'integer', 'The number of nodes running at least one daemon pod.'),
    column('Ready', 'integer', 'The number of nodes with a daemon pod running and ready.'),
    column('Up-to-date', 'integer', 'The number of nodes running the updated daemon pod.'),
    column('Available', 'integer', 'The number of nodes with the daemon pod available.'),
    column('Node Selector', 'string', 'The node selector of the pod template.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    int(obj, 'status.desiredNumberScheduled'),
    int(obj, 'status.currentNumberScheduled'),
    int(obj, 'status.numberReady'),
    int(obj, 'status.updatedNumberScheduled'),
    int(obj, 'status.numberAvailable'),
    formatLabels(dig(obj, 'spec.template.spec.nodeSelector')),
    ageOf(obj, ctx),
    ...templateCells(obj),
    formatLabelSelector(dig(obj, 'spec.selector')),
  ]
)

/** The workload printers by `group/kind`. */
export const workloadPrinters: Record<string, Printer> = {
  'apps/Deployment': DEPLOYMENT_PRINTER,
  'apps/ReplicaSet': REPLICA_SET_PRINTER,
  'apps/StatefulSet': STATEFUL_SET_PRINTER,
  'apps/DaemonSet': DAEMON_SET_PRINTER,
  '/ReplicationController': REPLICATION_CONTROLLER_PRINTER,
}
