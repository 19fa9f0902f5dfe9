/**
 * A container that crash-loops (the `crash-loop` fault, faults.ts), as a kubelet reports it: the
 * pod is Running, the container exits with code 1 each time it starts and the kubelet starts it
 * again after a back-off that doubles from 10 s up to 5 minutes. Between starts the container
 * waits with reason CrashLoopBackOff, its last state terminated (exit code 1, reason Error),
 * `restartCount` counting the restarts; Ready and ContainersReady stay False
 * (ContainersNotReady). Events: Pulled, Created and Started on each start, then the Warning
 * BackOff. A Deployment rolling such a pod out makes no progress and times out
 * (ProgressDeadlineExceeded, sim-deployment-status.ts), as with an image that cannot be pulled.
 * A pass asks to be woken at the next restart, so a crash-looping pod costs one status write per
 * restart, no more.
 */
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { faultHits } from './faults.ts'
import { randomHex } from './hash.ts'
import { type Obj, objects, peek, specOf, statusOf, str } from './json.ts'
import { type SimContext, updateIn, wakeAt } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { unreadyConditions } from './unready-conditions.ts'

const FIRST_BACKOFF_MS = 10_000
const MAX_BACKOFF_MS = 300_000

/** The kubelet's back-off after `restarts` restarts (ms). */
export const backOffMs = (restarts: number) =>
  Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, restarts - 1))

/**
 * Whether one of the pod's containers crash-loops at this edge and the kubelet restarts it in
 * place (restartPolicy Always or OnFailure; with Never the pod fails instead: sim-pod-end.ts).
 */
export const restartsInPlace = (ctx: SimContext, pod: KubeObject) =>
  str(specOf(pod), 'restartPolicy') !== 'Never' &&
  objects(specOf(pod), 'containers').some((c) =>
    faultHits(ctx.faults, 'crash-loop', str(c, 'image'))
  )

const podRef = (pod: KubeObject) =>
  `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? 'default'}(${pod.metadata.uid ?? ''})`

function previousRestarts(pod: KubeObject, name: string): number {
  const s = objects(statusOf(pod), 'containerStatuses').find((c) => str(c, 'name') === name)
  const n = s?.restartCount
  return typeof n === 'number' ? n : -1
}

/** When a container of the pod last exited (ms), from its last state; NaN before the first exit. */
function lastExit(pod: KubeObject): number {
  const times = objects(statusOf(pod), 'containerStatuses')
    .map((c) => Date.parse(str(peek(peek(c, 'lastState'), 'terminated'), 'finishedAt')))
    .filter(Number.isFinite)
  return times.length > 0 ? Math.max(...times) : Number.NaN
}

const restartsOf = (pod: KubeObject) =>
  Math.max(
    0,
    ...objects(statusOf(pod), 'containerStatuses').map((c) =>
      typeof c.restartCount === 'number' ? c.restartCount : 0
    )
  )

function crashedStatus(ctx: SimContext, pod: KubeObject, at: string): Obj {
  const containers = objects(specOf(pod), 'containers')
  const crashing = containers.filter((c) => faultHits(ctx.faults, 'crash-loop', str(c, 'image')))
  const names = crashing.map((c) => str(c, 'name'))
  const old = statusOf(pod)
  return {
    phase: 'Running',
    conditions: unreadyConditions(['PodReadyToStartContainers', 'Initialized'], names, at),
    hostIP: ctx.node.ip,
    hostIPs: [{ ip: ctx.node.ip }],
    ...(old.podIP ? { podIP: old.podIP, podIPs: old.podIPs } : {}),
    startTime: str(old, 'startTime', at),
    containerStatuses: containers.map((c) => {
      const name = str(c, 'name')
      const image = str(c, 'image')
      const crashes = names.includes(name)
      const restarts = previousRestarts(pod, name) + 1
      const containerID = `containerd://${randomHex(64, ctx.random)}`
      return crashes
        ? {
            name,
            image,
            imageID: '',
            ready: false,
            started: false,
            restartCount: restarts,
            state: {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: `back-off ${backOffMs(restarts) / 1000}s restarting failed container=${name} pod=${podRef(pod)}`,
              },
            },
            lastState: {
              terminated: {
                exitCode: 1,
                reason: 'Error',
                startedAt: at,
                finishedAt: at,
                containerID,
              },
            },
          }
        : {
            name,
            image,
            imageID: '',
            containerID,
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: str(old, 'startTime', at) } },
          }
    }),
  }
}

/**
 * The kubelet's pass over a crash-looping pod: a pending one starts and crashes; a waiting one
 * whose back-off ended starts and crashes again; otherwise the pass asks to be woken then.
 */
export async function crashLoop(ctx: SimContext, pod: KubeObject): Promise<void> {
  const nowMs = ctx.now().getTime()
  const exited = lastExit(pod)
  const restarts = restartsOf(pod)
  if (Number.isFinite(exited)) {
    const due = exited + backOffMs(restarts)
    if (due > nowMs) {
      wakeAt(ctx, due)
      return
    }
  }
  const at = timestamp(ctx.now())
  const written = await updateIn(
    ctx,
    'pods',
    { ...pod, status: crashedStatus(ctx, pod, at) as never },
    { as: 'kubelet', status: true }
  )
  if (!written) return
  wakeAt(ctx, nowMs + backOffMs(restartsOf(written)))
  for (const c of objects(specOf(pod), 'containers')) {
    if (!faultHits(ctx.faults, 'crash-loop', str(c, 'image'))) continue
    const name = str(c, 'name')
    const fieldPath = `spec.containers{${name}}`
    const said: [string, string, 'Normal' | 'Warning'][] = [
      ['Pulled', `Container image "${str(c, 'image')}" already present on machine`, 'Normal'],
      ['Created', `Created container: ${name}`, 'Normal'],
      ['Started', `Started container: ${name}`, 'Normal'],
      ['BackOff', `Back-off restarting failed container ${name} in pod ${podRef(pod)}`, 'Warning'],
    ]
    for (const [reason, message, type] of said)
      await recordEvent(ctx, written, { source: SOURCES.kubelet, reason, message, type, fieldPath })
  }
}
