/**
 * A store nobody answers for: `closedPort()` finds a loopback port with nothing listening (bound,
 * then released), and `unreachableStore()` is a DynamoStore whose client sends there with one
 * attempt, so every request fails at once with ECONNREFUSED. Call `close()` when done.
 */
import { createServer } from 'node:net'
import { createDynamoClient } from '../../lib/store/dynamo-client.ts'
import { createDynamoStore, type DynamoStore } from '../../lib/store/dynamo-store.ts'

export async function closedPort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()))
  const { port } = srv.address() as { port: number }
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

export async function unreachableStore(
  tableName = 'edgeplane',
  maxAttempts = 1
): Promise<DynamoStore & { close(): void }> {
  const client = createDynamoClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${await closedPort()}`,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts,
  })
  return { ...createDynamoStore({ client, tableName }), close: () => client.destroy() }
}
