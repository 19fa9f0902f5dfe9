/**
 * The end of a Job's pod once it has run its time: Succeeded with every container terminated
 * Completed (exit code 0), or — when the edge is told its Job pods fail (the `job-fail` fault, or
 * `crash-loop` on a pod whose restartPolicy is Never, faults.ts) — Failed with the containers
 * terminated Error (exit code 1), as a kubelet reports a container that exited non-zero and is
 * not restarted. Ready, ContainersReady and PodReadyToStartContainers turn False (PodCompleted or
 * PodFailed); the Job controller (sim-jobs.ts) counts the pod either way.
 */
import type { KubeObject } from '../kube/types.ts'
import { faultHits } from './faults.ts'
import { type Obj, objects, peek, specOf, statusOf, str } from './json.ts'
import { type SimContext, updateIn } from './sim-context.ts'

/** Whether the Job pod `pod` ends Failed at this edge. */
export function jobPodFails(ctx: SimContext, pod: KubeObject): boolean {
  const never = str(specOf(pod), 'restartPolicy') === 'Never'
  return objects(specOf(pod), 'containers').some((c) => {
    const image = str(c, 'image')
    return (
      faultHits(ctx.faults, 'job-fail', image) ||
      (never && faultHits(ctx.faults, 'crash-loop', image))
    )
  })
}

function endedStatus(status: Obj, at: string, failed: boolean): Obj {
  const reason = failed ? 'PodFailed' : 'PodCompleted'
  const conditions = objects(status, 'conditions').map((c) =>
    ['Ready', 'ContainersReady', 'PodReadyToStartContainers'].includes(str(c, 'type'))
      ? { type: str(c, 'type'), status: 'False', lastTransitionTime: at, reason }
      : c
  )
  const containerStatuses = objects(status, 'containerStatuses').map((s) => ({
    ...s,
    ready: false,
    started: false,
    state: {
      terminated: {
        exitCode: failed ? 1 : 0,
        reason: failed ? 'Error' : 'Completed',
        startedAt: str(peek(peek(s, 'state'), 'running'), 'startedAt', at),
        finishedAt: at,
        containerID: s.containerID,
      },
    },
  }))
  return { ...status, phase: failed ? 'Failed' : 'Succeeded', conditions, containerStatuses }
}

/** Ends the Job pod `pod` (its run time is over): Succeeded, or Failed when told to fail. */
export async function endJobPod(ctx: SimContext, pod: KubeObject, at: string): Promise<void> {
  const status = endedStatus(statusOf(pod), at, jobPodFails(ctx, pod))
  await updateIn(ctx, 'pods', { ...pod, status: status as never }, { as: 'kubelet', status: true })
}
