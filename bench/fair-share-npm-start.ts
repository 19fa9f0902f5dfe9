/**
 * The fair-share phase through `npm start`'s stack (npm-start-stack.ts), the path users run: the
 * noisy and the quiet token are Tokens issued through the API (`auth.edgeplane.io`, as an
 * administrator onboards a team), and every request goes through the https front to wrangler dev's
 * Worker, whose isolate holds the per-token limiter. The stack logs at warn so the Worker's log
 * lines do not weigh on the figures. Stops the stack whatever happens.
 */
import { readFile } from 'node:fs/promises'
import { type FairShareOptions, type FairShareResults, runFairShare } from './fair-share.ts'
import { createHubClient } from './hub-client.ts'
import { startNpmStack } from './npm-start-stack.ts'

const TOKENS = '/clusters/root/apis/auth.edgeplane.io/v1alpha1/tokens'

export async function runFairShareNpmStart(
  o: FairShareOptions,
  progress: (message: string) => void
): Promise<FairShareResults> {
  progress('fair share: starting npm start')
  const stack = await startNpmStack({ LOG_LEVEL: 'warn' })
  try {
    const ca = await readFile(stack.info.caFile, 'utf8')
    const admin = createHubClient(stack.info.url, stack.token, ca)
    return await runFairShare(
      {
        hubUrl: stack.info.url,
        ca,
        admin,
        async issue(name) {
          const made = (await admin.call('POST', TOKENS, {
            body: {
              apiVersion: 'auth.edgeplane.io/v1alpha1',
              kind: 'Token',
              metadata: { name },
              spec: { spaces: ['root'] },
            },
            expect: 201,
          })) as { status?: { token?: string } }
          const token = made.status?.token
          if (!token) throw new Error(`the Token ${name} came back without its token`)
          return token
        },
      },
      o,
      progress
    )
  } finally {
    await stack.stop()
  }
}
