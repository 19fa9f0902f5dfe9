import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadKubeConfig, SA_TOKEN } from '../../../infra/edge-agent/kube-config.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const config = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [
    { name: 'a', cluster: { server: 'https://a.example' } },
    { name: 'b', cluster: { server: 'https://b.example' } },
  ],
  users: [{ name: 'u', user: { token: 't' } }],
  contexts: [
    { name: 'a', context: { cluster: 'a', user: 'u' } },
    { name: 'b', context: { cluster: 'b', user: 'u' } },
  ],
  'current-context': 'a',
}

async function file(): Promise<string> {
  const path = join(await tempDir('kc-'), 'config')
  await writeFile(path, JSON.stringify(config))
  return path
}

describe('loadKubeConfig', () => {
  it('reads the given file, its current context or the one named', async () => {
    const path = await file()
    expect(loadKubeConfig({ kubeconfig: path }, {}).kubeConfig.getCurrentCluster()?.server).toBe(
      'https://a.example'
    )
    const b = loadKubeConfig({ kubeconfig: path, context: 'b' }, {})
    expect(b.kubeConfig.getCurrentCluster()?.server).toBe('https://b.example')
    expect(() => loadKubeConfig({ kubeconfig: path, context: 'zz' }, {})).toThrow(
      /no context named zz/
    )
  })

  it('falls back to KUBECONFIG when not in a pod, and uses the pod config in one', async () => {
    const path = await file()
    // client-node's default reads process.env itself.
    const saved = process.env.KUBECONFIG
    process.env.KUBECONFIG = path
    try {
      const outside = loadKubeConfig({}, { KUBECONFIG: path }, () => false)
      expect(outside).toMatchObject({ source: path })
      expect(outside.kubeConfig.getCurrentCluster()?.server).toBe('https://a.example')
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG
      else process.env.KUBECONFIG = saved
    }
    const env = {
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBECONFIG: path,
    }
    const inPod = loadKubeConfig({}, env, (p) => p === SA_TOKEN)
    expect(inPod.source).toBe('in-cluster')
    expect(inPod.kubeConfig.getCurrentUser()?.name).toBe('inClusterUser')
  })
})
