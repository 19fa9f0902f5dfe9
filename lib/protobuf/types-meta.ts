/**
 * Descriptors for the apimachinery meta/v1 messages every kind embeds: ObjectMeta (all of it,
 * including ownerReferences and managedFields), LabelSelector, and the metav1 Condition used in
 * statuses. Field numbers are those of k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto.
 */
import { bool, fieldsV1, int64, KEEP, list, map, message, obj, str, time } from './schema.ts'

export const OwnerReference = message('k8s.io.apimachinery.pkg.apis.meta.v1.OwnerReference', [
  str(5, 'apiVersion'),
  str(1, 'kind'),
  str(3, 'name'),
  str(4, 'uid'),
  bool(6, 'controller', KEEP),
  bool(7, 'blockOwnerDeletion', KEEP),
])

export const ManagedFieldsEntry = message(
  'k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry',
  [
    str(1, 'manager'),
    str(2, 'operation'),
    str(3, 'apiVersion'),
    time(4, 'time'),
    str(6, 'fieldsType'),
    fieldsV1(7, 'fieldsV1'),
    str(8, 'subresource'),
  ]
)

export const ObjectMeta = message('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', [
  str(1, 'name'),
  str(2, 'generateName'),
  str(3, 'namespace'),
  str(4, 'selfLink'),
  str(5, 'uid'),
  str(6, 'resourceVersion'),
  int64(7, 'generation'),
  time(8, 'creationTimestamp'),
  time(9, 'deletionTimestamp'),
  int64(10, 'deletionGracePeriodSeconds', KEEP),
  map(11, 'labels', 'string'),
  map(12, 'annotations', 'string'),
  list(13, 'ownerReferences', OwnerReference),
  list(14, 'finalizers', 'string'),
  list(17, 'managedFields', ManagedFieldsEntry),
])

export const LabelSelectorRequirement = message(
  'k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
  [str(1, 'key'), str(2, 'operator'), list(3, 'values', 'string')]
)

export const LabelSelector = message('k8s.io.apimachinery.pkg.apis.meta.v1.LabelSelector', [
  map(1, 'matchLabels', 'string'),
  list(2, 'matchExpressions', LabelSelectorRequirement),
])

/** `*metav1.LabelSelector`: present-but-empty means "everything", so it is kept. */
export const selector = (num: number, name: string) => obj(num, name, LabelSelector, KEEP)

export const Condition = message('k8s.io.apimachinery.pkg.apis.meta.v1.Condition', [
  str(1, 'type'),
  str(2, 'status'),
  int64(3, 'observedGeneration'),
  time(4, 'lastTransitionTime'),
  str(5, 'reason'),
  str(6, 'message'),
])

/** A standard `metadata` field (number 1 in every kind). */
export const metadata = () => obj(1, 'metadata', ObjectMeta)
