/**
 * A stack.json as a started stack writes it (the relay, one edge), for the tests of its file and
 * of its writer.
 */
import type { StackInfo } from '../../../infra/local/stack-info.ts'

export const sampleStackInfo: StackInfo = {
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
