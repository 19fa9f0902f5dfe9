/**
 * A simulated edge failing to run a pod because of an image it cannot pull. An image whose
 * registry host is under the `.invalid` top-level domain (RFC 2606: it can never resolve, e.g.
 * `registry.invalid/shop:v2`) fails as a real kubelet's pull of an unknown host does: the pod is
 * bound but stays Pending, its containers waiting in ImagePullBackOff, Ready and ContainersReady
 * False (ContainersNotReady), with the kubelet's Warning Events (Failed: the pull error, then
 * `Error: ErrImagePull`). Nothing else about the pod moves, so a Deployment rolling such an image
 * out makes no progress and, past its progressDeadlineSeconds, reports ProgressDeadlineExceeded
 * (sim-deployment-status.ts). An edge told to (the `image-pull` fault, faults.ts) fails the same
 * way on the images it names, whatever their registry. Every other image is "already present on
 * machine".
 */
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { faultHits } from './faults.ts'
import { qualifiedImage } from './hash.ts'
import { type Obj, objects, specOf, statusOf, str } from './json.ts'
import { type SimContext, updateIn } from './sim-context.ts'
import { recordEvent, SOURCES } from './sim-events.ts'
import { unreadyConditions } from './unready-conditions.ts'

const host = (image: string) => qualifiedImage(image).split('/')[0] ?? ''

/** Whether any kubelet could pull `image` (its registry host can resolve). */
export const canPull = (image: string) => !/(^|\.)invalid(:\d+)?$/.test(host(image))

/** Whether this edge's kubelet pulls `image`: it can, and the edge is not told it cannot. */
const pulls = (ctx: SimContext, image: string) =>
  canPull(image) && !faultHits(ctx.faults, 'image-pull', image)

/** The first image of the pod's containers that cannot be pulled; undefined when all can. */
export function unpullableImage(ctx: SimContext, pod: KubeObject): string | undefined {
  const spec = specOf(pod)
  const all = [...objects(spec, 'initContainers'), ...objects(spec, 'containers')]
  return all.map((c) => str(c, 'image')).find((image) => !pulls(ctx, image))
}

/** containerd's pull error: an unknown host, or (the `image-pull` fault) a reference not found. */
function pullError(image: string): string {
  const ref = qualifiedImage(image)
  const why = canPull(image) ? `${ref}: not found` : `dial tcp: lookup ${host(image)}: no such host`
  return `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${why}`
}

function waitingStatus(ctx: SimContext, pod: KubeObject, at: string): Obj {
  const names = objects(specOf(pod), 'containers').map((c) => str(c, 'name'))
  return {
    phase: 'Pending',
    conditions: unreadyConditions(['Initialized'], names, at),
    hostIP: ctx.node.ip,
    hostIPs: [{ ip: ctx.node.ip }],
    startTime: at,
    containerStatuses: objects(specOf(pod), 'containers').map((c) => {
      const image = str(c, 'image')
      const waiting = pulls(ctx, image)
        ? { reason: 'PodInitializing' }
        : {
            reason: 'ImagePullBackOff',
            message: `Back-off pulling image "${image}": ErrImagePull: ${pullError(image)}`,
          }
      return {
        name: str(c, 'name'),
        image,
        imageID: '',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting },
      }
    }),
  }
}

/**
 * The kubelet's answer to a bound, Pending pod with an image it cannot pull: the waiting status
 * and the Events, once (a pod already waiting is left as it is).
 */
export async function holdUnpulled(ctx: SimContext, pod: KubeObject, image: string): Promise<void> {
  if (objects(statusOf(pod), 'containerStatuses').length > 0) return
  const at = timestamp(ctx.now())
  const held = await updateIn(
    ctx,
    'pods',
    { ...pod, status: waitingStatus(ctx, pod, at) as never },
    { as: 'kubelet', status: true }
  )
  if (!held) return
  const ns = pod.metadata.namespace ?? 'default'
  const said: [string, string, 'Normal' | 'Warning'][] = [
    [
      'Scheduled',
      `Successfully assigned ${ns}/${pod.metadata.name ?? ''} to ${ctx.node.name}`,
      'Normal',
    ],
    ['Pulling', `Pulling image "${image}"`, 'Normal'],
    ['Failed', `Failed to pull image "${image}": ${pullError(image)}`, 'Warning'],
    ['Failed', 'Error: ErrImagePull', 'Warning'],
  ]
  for (const [reason, message, type] of said) {
    const source = reason === 'Scheduled' ? SOURCES.scheduler : SOURCES.kubelet
    await recordEvent(ctx, held, { source, reason, message, type })
  }
}
