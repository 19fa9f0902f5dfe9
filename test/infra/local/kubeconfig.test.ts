import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import {
  ADMIN_USER,
  buildKubeconfig,
  contextSpaces,
  renderKubeconfig,
  writeKubeconfig,
} from '../../../infra/local/kubeconfig.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const opts = { hubUrl: 'http://127.0.0.1:8787', adminToken: 'tok-1', spaces: ['root', 'root:espw'] }

describe('kubeconfig', () => {
  it('has a context per space, pointing at /clusters/<path>, current-context the first', () => {
    const kc = new KubeConfig()
    kc.loadFromString(renderKubeconfig(opts))
    expect(kc.getCurrentContext()).toBe('root')
    expect(kc.getContexts().map((c) => c.name)).toEqual(['root', 'root:espw'])
    expect(kc.getCluster('root')?.server).toBe('http://127.0.0.1:8787/clusters/root')
    expect(kc.getCluster('root:espw')?.server).toBe('http://127.0.0.1:8787/clusters/root:espw')
    expect(kc.getCurrentUser()).toMatchObject({ name: ADMIN_USER, token: 'tok-1' })
  })

  it('has a context for each space npm start makes: the inventory only with edges', () => {
    expect(contextSpaces(0)).toEqual(['root', 'root:espw'])
    expect(contextSpaces(2)).toEqual(['root', 'root:espw', 'root:imw-1'])
    const kc = new KubeConfig()
    kc.loadFromString(renderKubeconfig({ ...opts, spaces: contextSpaces(1) }))
    expect(kc.getCluster('root:imw-1')?.server).toBe('http://127.0.0.1:8787/clusters/root:imw-1')
  })

  it('gives extra contexts with their own token their own user', () => {
    const doc = buildKubeconfig({
      ...opts,
      extra: [{ name: 'edge-1', server: 'http://127.0.0.1:9000', token: 'edge-tok' }],
    })
    const kc = new KubeConfig()
    kc.loadFromString(JSON.stringify(doc))
    kc.setCurrentContext('edge-1')
    expect(kc.getCurrentCluster()?.server).toBe('http://127.0.0.1:9000')
    expect(kc.getCurrentUser()?.token).toBe('edge-tok')
    expect(kc.getUsers()).toHaveLength(2)
  })

  it('is written owner-only, since it holds the token', async () => {
    const dir = await tempDir('ep-kc-')
    const path = join(dir, 'kubeconfig')
    await writeKubeconfig(path, opts)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(await readFile(path, 'utf8')).toContain('current-context: root')
  })

  it('trusts the hub certificate for https servers only', () => {
    const caPem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'
    const https = buildKubeconfig({ ...opts, hubUrl: 'https://127.0.0.1:8787', caPem }) as {
      clusters: { cluster: Record<string, string> }[]
    }
    expect(https.clusters[0]?.cluster).toEqual({
      server: 'https://127.0.0.1:8787/clusters/root',
      'certificate-authority-data': Buffer.from(caPem).toString('base64'),
    })
    const http = buildKubeconfig({ ...opts, caPem }) as {
      clusters: { cluster: Record<string, string> }[]
    }
    expect(http.clusters[0]?.cluster).toEqual({ server: 'http://127.0.0.1:8787/clusters/root' })
  })
})
