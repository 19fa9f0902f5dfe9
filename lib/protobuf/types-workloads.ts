/**
 * Descriptors for the workload kinds `kubectl create deployment|job|cronjob` generates:
 * apps/v1 Deployment and batch/v1 Job and CronJob (including a Job made `--from=cronjob/...`,
 * which carries owner references and the cron job's whole template), with their specs and
 * statuses. Numbers are those of k8s.io/api/{apps,batch}/v1/generated.proto.
 */

import { bool, int32, int64, intOrString, KEEP, list, message, obj, str, time } from './schema.ts'
import { ObjectReference } from './types-core.ts'
import { metadata, ObjectMeta, selector } from './types-meta.ts'
import { PodTemplateSpec } from './types-pod.ts'

const apps = (name: string) => `k8s.io.api.apps.v1.${name}`
const batch = (name: string) => `k8s.io.api.batch.v1.${name}`

const DeploymentStrategy = message(apps('DeploymentStrategy'), [
  str(1, 'type'),
  obj(
    2,
    'rollingUpdate',
    message(apps('RollingUpdateDeployment'), [
      intOrString(1, 'maxUnavailable', KEEP),
      intOrString(2, 'maxSurge', KEEP),
    ]),
    KEEP
  ),
])

const DeploymentSpec = message(apps('DeploymentSpec'), [
  int32(1, 'replicas', KEEP),
  selector(2, 'selector'),
  obj(3, 'template', PodTemplateSpec),
  obj(4, 'strategy', DeploymentStrategy),
  int32(5, 'minReadySeconds'),
  int32(6, 'revisionHistoryLimit', KEEP),
  bool(7, 'paused'),
  int32(9, 'progressDeadlineSeconds', KEEP),
  str(10, 'podReplacementPolicy', KEEP),
])

const DeploymentCondition = message(apps('DeploymentCondition'), [
  str(1, 'type'),
  str(2, 'status'),
  time(6, 'lastUpdateTime'),
  time(7, 'lastTransitionTime'),
  str(4, 'reason'),
  str(5, 'message'),
])

const DeploymentStatus = message(apps('DeploymentStatus'), [
  int64(1, 'observedGeneration'),
  int32(2, 'replicas'),
  int32(3, 'updatedReplicas'),
  int32(7, 'readyReplicas'),
  int32(4, 'availableReplicas'),
  int32(5, 'unavailableReplicas'),
  int32(9, 'terminatingReplicas', KEEP),
  list(6, 'conditions', DeploymentCondition),
  int32(8, 'collisionCount', KEEP),
])

export const Deployment = message(apps('Deployment'), [
  metadata(),
  obj(2, 'spec', DeploymentSpec),
  obj(3, 'status', DeploymentStatus),
])

const PodFailurePolicyRule = message(batch('PodFailurePolicyRule'), [
  str(1, 'action'),
  obj(
    2,
    'onExitCodes',
    message(batch('PodFailurePolicyOnExitCodesRequirement'), [
      str(1, 'containerName', KEEP),
      str(2, 'operator'),
      list(3, 'values', 'int32'),
    ]),
    KEEP
  ),
  list(
    3,
    'onPodConditions',
    message(batch('PodFailurePolicyOnPodConditionsPattern'), [str(1, 'type'), str(2, 'status')])
  ),
])

const SuccessPolicyRule = message(batch('SuccessPolicyRule'), [
  str(1, 'succeededIndexes', KEEP),
  int32(2, 'succeededCount', KEEP),
])

const JobSpec = message(batch('JobSpec'), [
  int32(1, 'parallelism', KEEP),
  int32(2, 'completions', KEEP),
  int64(3, 'activeDeadlineSeconds', KEEP),
  obj(
    11,
    'podFailurePolicy',
    message(batch('PodFailurePolicy'), [list(1, 'rules', PodFailurePolicyRule)]),
    KEEP
  ),
  obj(
    16,
    'successPolicy',
    message(batch('SuccessPolicy'), [list(1, 'rules', SuccessPolicyRule)]),
    KEEP
  ),
  int32(7, 'backoffLimit', KEEP),
  int32(12, 'backoffLimitPerIndex', KEEP),
  int32(13, 'maxFailedIndexes', KEEP),
  selector(4, 'selector'),
  bool(5, 'manualSelector', KEEP),
  obj(6, 'template', PodTemplateSpec),
  int32(8, 'ttlSecondsAfterFinished', KEEP),
  str(9, 'completionMode', KEEP),
  bool(10, 'suspend', KEEP),
  str(14, 'podReplacementPolicy', KEEP),
  str(15, 'managedBy', KEEP),
])

const JobCondition = message(batch('JobCondition'), [
  str(1, 'type'),
  str(2, 'status'),
  time(3, 'lastProbeTime'),
  time(4, 'lastTransitionTime'),
  str(5, 'reason'),
  str(6, 'message'),
])

const JobStatus = message(batch('JobStatus'), [
  list(1, 'conditions', JobCondition),
  time(2, 'startTime'),
  time(3, 'completionTime'),
  int32(4, 'active'),
  int32(5, 'succeeded'),
  int32(6, 'failed'),
  int32(11, 'terminating', KEEP),
  str(7, 'completedIndexes'),
  str(10, 'failedIndexes', KEEP),
  obj(
    8,
    'uncountedTerminatedPods',
    message(batch('UncountedTerminatedPods'), [
      list(1, 'succeeded', 'string'),
      list(2, 'failed', 'string'),
    ]),
    KEEP
  ),
  int32(9, 'ready', KEEP),
])

export const Job = message(batch('Job'), [
  metadata(),
  obj(2, 'spec', JobSpec),
  obj(3, 'status', JobStatus),
])

const JobTemplateSpec = message(batch('JobTemplateSpec'), [
  obj(1, 'metadata', ObjectMeta),
  obj(2, 'spec', JobSpec),
])

const CronJobSpec = message(batch('CronJobSpec'), [
  str(1, 'schedule'),
  str(8, 'timeZone', KEEP),
  int64(2, 'startingDeadlineSeconds', KEEP),
  str(3, 'concurrencyPolicy'),
  bool(4, 'suspend', KEEP),
  obj(5, 'jobTemplate', JobTemplateSpec),
  int32(6, 'successfulJobsHistoryLimit', KEEP),
  int32(7, 'failedJobsHistoryLimit', KEEP),
])

const CronJobStatus = message(batch('CronJobStatus'), [
  list(1, 'active', ObjectReference),
  time(4, 'lastScheduleTime'),
  time(5, 'lastSuccessfulTime'),
])

export const CronJob = message(batch('CronJob'), [
  metadata(),
  obj(2, 'spec', CronJobSpec),
  obj(3, 'status', CronJobStatus),
])
