/**
 * The conditions a kubelet gives a pod whose containers it cannot get ready (an image it cannot
 * pull, a container that crash-loops): the conditions `passed` True, Ready and ContainersReady
 * False with reason ContainersNotReady naming the unready containers, PodScheduled True, all at
 * `at`. Pure.
 */
import type { Obj } from './json.ts'

export function unreadyConditions(
  passed: readonly string[],
  unready: readonly string[],
  at: string
): Obj[] {
  const done = (type: string) => ({ type, status: 'True', lastTransitionTime: at })
  const notReady = (type: string) => ({
    type,
    status: 'False',
    lastTransitionTime: at,
    reason: 'ContainersNotReady',
    message: `containers with unready status: [${unready.join(' ')}]`,
  })
  return [...passed.map(done), notReady('Ready'), notReady('ContainersReady'), done('PodScheduled')]
}
