/**
 * A backstop for kube's garbage collector. The hub deletes dependents when their owner is deleted,
 * but a ReplicaSet or Pod the simulator created while its owner was being deleted points to an
 * owner that never sees it. Each pass removes ReplicaSets, Pods and Jobs whose controller is a
 * workload kind the snapshot lists and is not there. Owners are listed after their dependents, so
 * an owner that existed when a dependent was read is always in the snapshot.
 */
import { controllerRef, deleteIn, type Kind, type SimContext } from './sim-context.ts'

const OWNER_KINDS: Record<string, Kind> = {
  ReplicaSet: 'replicasets',
  Deployment: 'deployments',
  Job: 'jobs',
  StatefulSet: 'statefulsets',
  DaemonSet: 'daemonsets',
}

const DEPENDENT_KINDS: Kind[] = ['pods', 'replicasets', 'jobs']

export async function collectOrphans(ctx: SimContext): Promise<void> {
  for (const kind of DEPENDENT_KINDS)
    for (const obj of [...ctx.snap[kind]]) {
      const ref = controllerRef(obj)
      const ownerKind = ref ? OWNER_KINDS[ref.kind] : undefined
      if (!ref || !ownerKind) continue
      if (ctx.snap[ownerKind].some((o) => o.metadata.uid === ref.uid)) continue
      ctx.log.debug('collecting orphan', { kind, name: obj.metadata.name, owner: ref.name })
      await deleteIn(ctx, kind, obj)
    }
}
