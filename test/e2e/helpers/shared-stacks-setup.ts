/**
 * The e2e project's globalSetup (vitest.config.ts): runs, in vitest's main process, the stacks
 * that e2e files share (shared-stack.ts). It listens on a loopback port, handed to the files with
 * `provide`; a file POSTs the configuration it needs to /stacks and gets the data folder of a
 * running stack of that configuration, started on the first request (later requests wait for the
 * same start; a start that failed three times is answered to every file with its output). Each
 * stack has its own temporary data folder, and its stderr is appended to a file beside the
 * others' for `output()`; after the last file all stacks are destroyed and the folders removed.
 * A run with no sharing file starts none. First it builds the programs' bundle set the stacks run
 * (infra/local/program-bundles.ts), so the stacks booting at once do not each build it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { prepareProgramBundles } from '../../../infra/local/program-bundles.ts'
import { silentLogger } from '../../../lib/log.ts'
import type { SharedConfig, SharedStackReply } from './shared-stack.ts'
import { type E2eStack, REPO_ROOT, type StackOptions, startStack } from './stack.ts'

type Running = { stack: Promise<E2eStack>; stderrFile: string }

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) text += chunk.toString()
  return text
}

/**
 * A failed boot would fail every file that shares the stack, and boots do fail now and then for
 * reasons of the moment (a port another process took between being picked and being bound, e.g.
 * wrangler's "Address already in use"): a few more tries, each on a fresh port and data folder.
 */
const BOOT_ATTEMPTS = 3

async function bootWithRetries(opts: StackOptions): Promise<E2eStack> {
  const failures: string[] = []
  for (;;) {
    try {
      return await startStack(opts)
    } catch (e) {
      failures.push(`attempt ${failures.length + 1}: ${(e as Error).message ?? e}`)
      if (failures.length === BOOT_ATTEMPTS) throw new Error(failures.join('\n\n'))
    }
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The programs' bundle set, built once here rather than by the first stacks booting at once
  // (each stack finds it in the cache: infra/local/program-bundles.ts).
  await prepareProgramBundles({ root: REPO_ROOT, log: silentLogger })
  const logs = await mkdtemp(join(tmpdir(), 'edgeplane-e2e-shared-'))
  const running = new Map<string, Running>()

  const stackFor = (config: SharedConfig): Running => {
    const key = JSON.stringify([config.relay !== false, config.edges ?? ''])
    const known = running.get(key)
    if (known) return known
    const stderrFile = join(logs, `stack-${running.size + 1}.stderr`)
    const stack = bootWithRetries({
      relay: config.relay !== false,
      edges: config.edges ?? '',
      stderrFile,
    })
    // Answered to every file that asks; kept from being reported as unhandled meanwhile.
    stack.catch(() => undefined)
    const entry = { stack, stderrFile }
    running.set(key, entry)
    return entry
  }

  const server = createServer((req, res) => {
    const reply = async (): Promise<[number, SharedStackReply]> => {
      if (req.method !== 'POST' || req.url !== '/stacks') return [404, { error: 'no such route' }]
      const { stack, stderrFile } = stackFor(JSON.parse(await bodyOf(req)) as SharedConfig)
      try {
        return [200, { dataDir: (await stack).dataDir, stderrFile }]
      } catch (e) {
        return [500, { error: String((e as Error).message ?? e) }]
      }
    }
    void reply()
      .catch((e: unknown): [number, SharedStackReply] => [400, { error: String(e) }])
      .then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      })
  })
  // A stack may take minutes to boot on a busy machine: no request timeout here.
  server.requestTimeout = 0
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  project.provide('e2eSharedStacks', `http://127.0.0.1:${port}`)

  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await Promise.allSettled(
      [...running.values()].map(async ({ stack }) => (await stack).destroy())
    )
    await rm(logs, { recursive: true, force: true })
  }
}
