/**
 * The kinds the protobuf decoder understands, keyed by `apiVersion/kind` exactly as the
 * `runtime.Unknown` envelope names them: what `kubectl create` generates, and the self reviews
 * of `kubectl auth whoami` and `kubectl auth can-i`. A kind missing here is answered with a 415.
 */
import type { MessageDesc } from './schema.ts'
import {
  SelfSubjectAccessReview,
  SelfSubjectReview,
  SelfSubjectRulesReview,
  TokenRequest,
} from './types-auth.ts'
import {
  ConfigMap,
  Namespace,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
} from './types-core.ts'
import {
  ClusterRole,
  ClusterRoleBinding,
  HorizontalPodAutoscaler,
  Ingress,
  PodDisruptionBudget,
  PriorityClass,
  Role,
  RoleBinding,
} from './types-platform.ts'
import { CronJob, Deployment, Job } from './types-workloads.ts'

const RBAC = 'rbac.authorization.k8s.io/v1'
const AUTHZ = 'authorization.k8s.io/v1'

export const PROTOBUF_KINDS: ReadonlyMap<string, MessageDesc> = new Map([
  ['v1/Namespace', Namespace],
  ['v1/ConfigMap', ConfigMap],
  ['v1/Secret', Secret],
  ['v1/ServiceAccount', ServiceAccount],
  ['v1/Service', Service],
  ['v1/ResourceQuota', ResourceQuota],
  ['apps/v1/Deployment', Deployment],
  ['batch/v1/Job', Job],
  ['batch/v1/CronJob', CronJob],
  [`${RBAC}/Role`, Role],
  [`${RBAC}/ClusterRole`, ClusterRole],
  [`${RBAC}/RoleBinding`, RoleBinding],
  [`${RBAC}/ClusterRoleBinding`, ClusterRoleBinding],
  ['networking.k8s.io/v1/Ingress', Ingress],
  ['policy/v1/PodDisruptionBudget', PodDisruptionBudget],
  ['scheduling.k8s.io/v1/PriorityClass', PriorityClass],
  ['autoscaling/v1/HorizontalPodAutoscaler', HorizontalPodAutoscaler],
  ['authentication.k8s.io/v1/SelfSubjectReview', SelfSubjectReview],
  ['authentication.k8s.io/v1/TokenRequest', TokenRequest],
  [`${AUTHZ}/SelfSubjectAccessReview`, SelfSubjectAccessReview],
  [`${AUTHZ}/SelfSubjectRulesReview`, SelfSubjectRulesReview],
])

export function protobufKind(apiVersion: string, kind: string): MessageDesc | undefined {
  return PROTOBUF_KINDS.get(`${apiVersion}/${kind}`)
}
