/**
 * kubectl against one simulated edge of an e2e stack, for the everyday-habits tests: `run` in the
 * edge's kubeconfig context (optionally with stdin), `json` of a successful `-o json` read, the
 * pods a label selector picks in a namespace, a Deployment once the simulator has rolled it out
 * (polled), and the rows of the `Events:` section that `kubectl describe` prints (parsed with the
 * printed-table reader).
 */

import { expect } from 'vitest'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { eventually } from './edge-world.ts'
import { type KubectlResult, okJson } from './kubectl.ts'
import { type PrintedRow, parsePrinted } from './printed-table.ts'
import type { E2eStack } from './stack.ts'

export type Pod = KubeObject & {
  spec: { nodeName?: string; containers: { name: string; image: string }[] }
  status?: { phase?: string; podIP?: string; hostIP?: string }
}

export type EdgeKubectl = {
  run(args: string[], input?: string, timeoutMs?: number): Promise<KubectlResult>
  json<T = KubeObject>(args: string[]): Promise<T>
  /** The pods `selector` picks in `ns` (terminating ones included), sorted by name. */
  pods(ns: string, selector: string): Promise<Pod[]>
  /** Deployment `name` once its status shows `replicas` updated, ready and available for its generation. */
  rolledOut(ns: string, name: string, replicas: number): Promise<Deployment>
}

export type Deployment = KubeObject & { spec: Record<string, any>; status?: Record<string, any> }

export function edgeKubectl(stack: E2eStack, edge: string): EdgeKubectl {
  const run = (args: string[], input?: string, timeoutMs?: number) =>
    stack.kubectl(args, {
      context: edge,
      ...(input !== undefined ? { input } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    })
  const json = async <T>(args: string[]) => okJson<T>(await run([...args, '-o', 'json']))
  return {
    run,
    json,
    pods: async (ns, selector) => {
      const list = okJson<{ items: Pod[] }>(
        await run(['get', 'pods', '-n', ns, '-l', selector, '-o', 'json'])
      )
      return list.items.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    },
    rolledOut: async (ns, name, replicas) => {
      let d: Deployment | undefined
      await eventually(async () => {
        d = await json<Deployment>(['get', 'deployment', name, '-n', ns])
        expect(d.status).toMatchObject({
          observedGeneration: d.metadata.generation,
          replicas,
          updatedReplicas: replicas,
          readyReplicas: replicas,
          availableReplicas: replicas,
        })
      }, 60_000)
      return d as Deployment
    },
  }
}

/** The rows (Type, Reason, Age, From, Message) of the `Events:` section of a describe output. */
export function describedEvents(described: string): PrintedRow[] {
  const at = described.indexOf('\nEvents:')
  if (at < 0) throw new Error(`no Events section in:\n${described}`)
  const section = described.slice(at + '\nEvents:'.length)
  if (section.trim() === '<none>') return []
  return parsePrinted(section.replace(/^ {2}/gm, ''), 'Type').filter(
    (r) => !/^-+$/.test(r.Type ?? '')
  )
}
