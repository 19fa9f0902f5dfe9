/**
 * Where the agent keeps its ownership record: the namespace given (flag or environment, checked
 * as a namespace name), else its pod's own namespace when it runs in-cluster, else the bootstrap
 * manifests' `edgeplane-system`.
 */
import { describe, expect, it } from 'vitest'
import { parseAgentArgs } from '../../../infra/edge-agent/cli-args.ts'
import { recordNamespace, SA_NAMESPACE } from '../../../infra/edge-agent/record-namespace.ts'

const required = ['--center', 'https://c.example', '--mailbox', 'inv-mb-1', '--token-file', '/t']
const sa = (text: string | undefined) => async (path: string) => {
  if (path !== SA_NAMESPACE || text === undefined) throw new Error(`ENOENT ${path}`)
  return text
}

describe('the ownership record namespace', () => {
  it('takes --namespace or EDGEPLANE_NAMESPACE, flag first, and refuses a bad name', () => {
    const flag = parseAgentArgs([...required, '--namespace', 'agents'], {
      EDGEPLANE_NAMESPACE: 'env-ns',
    })
    expect(flag.kind === 'run' && flag.config.namespace).toBe('agents')
    const env = parseAgentArgs(required, { EDGEPLANE_NAMESPACE: 'env-ns' })
    expect(env.kind === 'run' && env.config.namespace).toBe('env-ns')
    const none = parseAgentArgs(required, { EDGEPLANE_NAMESPACE: '' })
    expect(none.kind === 'run' && none.config.namespace).toBeUndefined()
    const bad = parseAgentArgs([...required, '--namespace', 'Not_A_Namespace'], {})
    expect(bad).toMatchObject({ kind: 'error', message: expect.stringMatching(/--namespace/) })
  })

  it('defaults to the pod namespace in-cluster, else edgeplane-system', async () => {
    expect(await recordNamespace('given', true, sa('pod-ns'))).toBe('given')
    expect(await recordNamespace(undefined, true, sa('pod-ns\n'))).toBe('pod-ns')
    expect(await recordNamespace(undefined, true, sa(undefined))).toBe('edgeplane-system')
    expect(await recordNamespace(undefined, false, sa('pod-ns'))).toBe('edgeplane-system')
  })
})
