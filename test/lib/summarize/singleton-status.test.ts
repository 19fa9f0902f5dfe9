/**
 * singletonStatus (lib/summarize/singleton-status.ts): the status one edge reports of its copy, as
 * the center object carries it — every observedGeneration the report has (the status's, each
 * condition's) stated as the object's generation, for each kind the summarize step knows, and
 * nothing added that the report does not have.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject, KubeObject } from '../../../lib/kube/types.ts'
import { singletonStatus } from '../../../lib/summarize/singleton-status.ts'
import { condition, pastDeadline, withConditions } from './status-fixtures.ts'

const copy = (kind: string, status?: JsonObject): KubeObject => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name: 'x', generation: 9 },
  ...(status ? { status } : {}),
})

const stalled = pastDeadline(2, 9)

describe('singletonStatus', () => {
  it.each(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'])(
    'a %s: the edge’s observedGeneration becomes the object’s, the rest as reported',
    (kind) => {
      expect(singletonStatus(copy(kind, stalled), 2)).toEqual({ ...stalled, observedGeneration: 2 })
    }
  )

  it('a Pod: the status’s and each condition’s observedGeneration, where the edge wrote one', () => {
    const pod: JsonObject = {
      phase: 'Running',
      observedGeneration: 4,
      conditions: [
        condition('Ready', 'True', { observedGeneration: 4 }),
        condition('PodScheduled', 'True'),
      ],
    }
    expect(singletonStatus(copy('Pod', pod), 1)).toEqual({
      phase: 'Running',
      observedGeneration: 1,
      conditions: [
        { type: 'Ready', status: 'True', observedGeneration: 1 },
        { type: 'PodScheduled', status: 'True' },
      ],
    })
  })

  it('a Job: no observedGeneration is added where kube writes none', () => {
    const job = { succeeded: 1, ...withConditions(condition('Complete', 'True')) }
    expect(singletonStatus(copy('Job', job), 3)).toEqual(job)
  })

  it('no status reported, or no generation known: the report as it is', () => {
    expect(singletonStatus(copy('Deployment'), 2)).toEqual({})
    expect(singletonStatus(copy('Deployment', stalled), undefined)).toEqual(stalled)
  })

  it('leaves the reported copy unchanged', () => {
    const reported = copy('Deployment', structuredClone(stalled))
    singletonStatus(reported, 2)
    expect(reported.status).toEqual(stalled)
  })
})
