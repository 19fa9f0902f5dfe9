/**
 * The Deployment controller's rollout: one ReplicaSet per pod-template hash (`<deploy>-<hash>`,
 * label pod-template-hash, owned by the Deployment, the Deployment's annotations copied onto it as
 * kube does, plus revision, desired-replicas and max-replicas). The new ReplicaSet is scaled to
 * `spec.replicas`; old ones go to 0 once the new one is fully available (RollingUpdate) or at once
 * (Recreate, where the new one waits for the old pods to be gone). Old ReplicaSets beyond
 * revisionHistoryLimit are deleted; a template that matches an old ReplicaSet again (rollout undo)
 * gives it the next revision. The Deployment carries the revision annotation of its new ReplicaSet,
 * and a ScalingReplicaSet Event for each ReplicaSet scaled (`Scaled up replica set <rs> from 0 to 2`).
 */
import { jsonEqual } from '../hub/metadata.ts'
import type { KubeObject } from '../kube/types.ts'
import {
  hashLabelOf,
  newReplicaSet,
  REVISION,
  revisionOf,
  rsAnnotations,
} from './deployment-util.ts'
import { podTemplateHash } from './hash.ts'
import { num, specOf, str } from './json.ts'
import { createIn, deleteIn, ownedBy, type SimContext, updateIn } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { activePods } from './sim-replicasets.ts'

const specReplicas = (rs: KubeObject) => num(rs.spec, 'replicas', 1)
const statusReplicas = (rs: KubeObject) => num(rs.status, 'replicas', 0)

/** A ReplicaSet `rs` of Deployment `d` scaled from `from` to `to` replicas. */
type Scaling = { rs: KubeObject; from: number; to: number }

/** The ScalingReplicaSet Event kube's Deployment controller records about `d`. */
async function scaled(ctx: SimContext, d: KubeObject, s: Scaling) {
  const { rs, from, to } = s
  if (from === to) return
  const how = to > from ? 'up' : 'down'
  const message = `Scaled ${how} replica set ${rs.metadata.name ?? ''} from ${from} to ${to}`
  await recordEvent(ctx, d, { source: SOURCES.deployment, reason: 'ScalingReplicaSet', message })
}

/** `rs` (of `d`) at `replicas`, with `annotations` replacing its own when given. */
type ReplicaChange = { rs: KubeObject; replicas: number; annotations?: Record<string, string> }

async function setReplicas(ctx: SimContext, d: KubeObject, change: ReplicaChange) {
  const { rs, replicas, annotations } = change
  const metadata = annotations ? { ...rs.metadata, annotations } : rs.metadata
  const written = await updateIn(ctx, 'replicasets', {
    ...rs,
    metadata,
    spec: { ...specOf(rs), replicas } as never,
  })
  if (written) await scaled(ctx, d, { rs: written, from: specReplicas(rs), to: replicas })
  return written
}

async function pruneHistory(ctx: SimContext, d: KubeObject, olds: KubeObject[]): Promise<void> {
  const limit = num(d.spec, 'revisionHistoryLimit', 10)
  const dead = olds
    .filter((rs) => specReplicas(rs) === 0 && statusReplicas(rs) === 0)
    .filter((rs) => activePods(ctx, rs).length === 0)
    .sort((a, b) => revisionOf(a) - revisionOf(b))
  for (const rs of dead.slice(0, Math.max(0, dead.length - limit)))
    await deleteIn(ctx, 'replicasets', rs)
}

/** One Deployment's rollout step; true when it created a new ReplicaSet now. */
async function rollout(ctx: SimContext, d: KubeObject): Promise<boolean> {
  if (d.metadata.deletionTimestamp) return false
  const spec = specOf(d)
  const desired = num(spec, 'replicas', 1)
  const hash = podTemplateHash(spec.template)
  const owned = ownedBy(ctx, 'replicasets', d.metadata.uid)
  const maxRevision = Math.max(0, ...owned.map(revisionOf))
  const recreate = str(spec.strategy, 'type') === 'Recreate'
  const isOld = (rs: KubeObject) => hashLabelOf(rs) !== hash
  const oldActive = owned.some(
    (rs) => isOld(rs) && (specReplicas(rs) > 0 || statusReplicas(rs) > 0)
  )
  let created = false
  let newRs = owned.find((rs) => !isOld(rs))
  if (!newRs) {
    if (spec.paused === true) return false
    const initial = recreate && oldActive ? 0 : desired
    newRs = await createIn(ctx, 'replicasets', newReplicaSet(d, hash, maxRevision + 1, initial))
    if (!newRs) return false
    created = true
    await scaled(ctx, d, { rs: newRs, from: 0, to: initial })
  }
  const olds = owned.filter(isOld)
  const revision = revisionOf(newRs) < maxRevision ? maxRevision + 1 : revisionOf(newRs)
  const annotations = rsAnnotations(d, newRs, revision)
  const target = recreate && oldActive ? 0 : desired
  const sameAnnotations = jsonEqual(annotations, newRs.metadata.annotations ?? {})
  if (specReplicas(newRs) !== target || !sameAnnotations)
    newRs = (await setReplicas(ctx, d, { rs: newRs, replicas: target, annotations })) ?? newRs
  const newAvailable = num(newRs.status, 'availableReplicas', 0)
  if (recreate || newAvailable >= desired)
    for (const rs of olds) if (specReplicas(rs) > 0) await setReplicas(ctx, d, { rs, replicas: 0 })
  await pruneHistory(ctx, d, olds)
  const rev = String(revisionOf(newRs))
  if (d.metadata.annotations?.[REVISION] !== rev)
    await updateIn(ctx, 'deployments', {
      ...d,
      metadata: {
        ...d.metadata,
        annotations: { ...(d.metadata.annotations ?? {}), [REVISION]: rev },
      },
    })
  return created
}

/** Rolls every Deployment one step; returns the uids that got a new ReplicaSet now. */
export async function syncDeployments(ctx: SimContext): Promise<Set<string>> {
  const created = new Set<string>()
  for (const d of [...ctx.snap.deployments])
    if (await rollout(ctx, d)) created.add(d.metadata.uid ?? '')
  return created
}
