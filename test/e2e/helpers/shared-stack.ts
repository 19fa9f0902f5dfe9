/**
 * The local stack shared by the e2e files that leave it as they found it. Booting a stack costs
 * about 5 CPU-seconds plus its teardown; files with the same configuration that only
 * read and write objects of their own share one, started on first request by the e2e project's
 * globalSetup (shared-stacks-setup.ts, in vitest's main process) and destroyed after the last
 * file. Each file gets its own copy of the kubeconfig (files add contexts to it) and its own
 * KUBECACHEDIR, both removed by `close()`, which leaves the stack running. Run under a vitest
 * config without that globalSetup, a file gets a stack of its own instead, destroyed by `close()`.
 *
 * A sharing file must not stop, restart or kill any part of the stack, must use names (spaces,
 * namespaces, cluster-scoped objects, CRD groups, tokens) no other file uses, and must not
 * expect an exact list of something other files add to (workspaces or EdgePlacements in root):
 * it filters such a list to its own names. Files run side by side in different workers.
 *
 *   const stack = await sharedStack()
 *   afterAll(() => stack?.close())
 */

import { readFileSync } from 'node:fs'
import { chmod, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { startStack } from './stack.ts'
import { readInfoNow, type StackClient, stackClient } from './stack-client.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where shared-stacks-setup.ts answers requests for a shared stack. */
    e2eSharedStacks: string
  }
}

/** The configurations a stack may be shared under (see StackOptions in stack.ts). */
export type SharedConfig = { relay?: boolean; edges?: string }

/** What the globalSetup answers for a stack it runs. */
export type SharedStackReply = { dataDir: string; stderrFile: string } | { error: string }

export type SharedStack = StackClient & {
  /** Removes this file's kubeconfig copy and cache; the shared stack keeps running. */
  close(): Promise<void>
}

export async function sharedStack(config: SharedConfig = {}): Promise<SharedStack> {
  const host = inject('e2eSharedStacks')
  if (!host) {
    // Run without the e2e project's globalSetup (another vitest config): a stack of its own.
    const own = await startStack(config)
    return { ...own, close: () => own.destroy() }
  }
  const res = await fetch(`${host}/stacks`, {
    method: 'POST',
    body: JSON.stringify({ relay: config.relay ?? true, edges: config.edges ?? '' }),
  })
  const reply = (await res.json()) as SharedStackReply
  if ('error' in reply) throw new Error(`the shared stack did not start: ${reply.error}`)
  const info = await readInfoNow(reply.dataDir)
  const token = (await readFile(info.adminTokenFile, 'utf8')).trim()
  const ca = await readFile(info.caFile, 'utf8')
  const own = await mkdtemp(join(tmpdir(), 'edgeplane-e2e-client-'))
  const kubeconfig = join(own, 'kubeconfig')
  await copyFile(info.kubeconfig, kubeconfig)
  await chmod(kubeconfig, 0o600)
  const client = stackClient({
    dataDir: reply.dataDir,
    port: info.port,
    url: info.url,
    kubeconfig,
    cacheDir: join(own, 'cache'),
    info: () => info,
    token: () => token,
    ca: () => ca,
    output: () => {
      try {
        return readFileSync(reply.stderrFile, 'utf8')
      } catch {
        return ''
      }
    },
  })
  return { ...client, close: () => rm(own, { recursive: true, force: true }) }
}
