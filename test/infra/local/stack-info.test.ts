import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  readStackInfo,
  removeStackInfo,
  type StackInfo,
  writeStackInfo,
} from '../../../infra/local/stack-info.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

const info: StackInfo = {
  pid: 42,
  url: 'http://127.0.0.1:8787',
  port: 8787,
  dataDir: '/d',
  kubeconfig: '/d/kubeconfig',
  adminTokenFile: '/d/admin-token',
  caFile: '/d/tls/cert.pem',
  dynalite: { endpoint: 'http://127.0.0.1:40000', port: 40000, path: '/d/dynalite' },
  tableName: 'edgeplane',
  wrangler: { pid: 43, inspectorPort: 40001, logFile: '/d/wrangler.log' },
  relay: { pid: 44, restarts: 0, logFile: '/d/relay.log', healthPort: 40002 },
  edges: [
    {
      name: 'florin',
      url: 'https://127.0.0.1:40003',
      port: 40003,
      mailbox: 'mb',
      dir: '/d/edges/florin',
      pid: 45,
      agentPid: 46,
      agentHealthPort: 40004,
    },
  ],
  startedAt: '2026-01-01T00:00:00.000Z',
}

describe('stack.json', () => {
  it('round-trips, owner-only, and is removed', async () => {
    const dir = await tempDir('ep-info-')
    const p = join(dir, 'stack.json')
    await writeStackInfo(p, info)
    expect(await readStackInfo(p)).toEqual(info)
    expect((await stat(p)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(p, 'utf8')).dynalite.endpoint).toBe('http://127.0.0.1:40000')
    await removeStackInfo(p)
    expect(await readStackInfo(p)).toBeUndefined()
    await removeStackInfo(p)
  })

  it('reads garbage or a wrong shape as absent', async () => {
    const dir = await tempDir('ep-info-')
    const p = join(dir, 'stack.json')
    await writeFile(p, '{not json')
    expect(await readStackInfo(p)).toBeUndefined()
    await writeFile(p, JSON.stringify({ ...info, port: 'x' }))
    expect(await readStackInfo(p)).toBeUndefined()
  })
})
