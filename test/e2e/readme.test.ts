/**
 * The README's commands work as written (issue 36: "every command of the README that runs
 * against the local stack is run by a test exactly as written"). The blocks of README.md and
 * infra/README.md marked `<!-- test: local-stack -->` (test/helpers/readme-blocks.ts) run in
 * document order, each as one `bash -euo pipefail`, against one stack started as `npm start`
 * starts it (the default two edges, port 8787, data in `.edgeplane/`), and each must exit 0: the
 * quick start's `kubectl apply -f examples/shop/`, `kubectl rollout status` and `kubectl wait
 * --for=condition=Available` on a Deployment placed on both edges, the Token and tenancy
 * examples, the Operate section's curls. A shell block without a marker fails.
 *
 * How the commands run as written: they name `.edgeplane/...`, `examples/...`, `npm run ...` and
 * `https://127.0.0.1:8787` relative to a clone. The test makes a scratch folder that looks like
 * one — a symlink to every top-level entry of the repository but `.edgeplane` (and `.git`) — and
 * starts the stack with its data folder at `<scratch>/.edgeplane`, so the blocks run in the
 * scratch folder with KUBECONFIG exported as the quick start says, a fresh kubectl cache, and no
 * EDGEPLANE_* or npm_* variable of the test run; a developer's own `.edgeplane` is never touched.
 * The stack listens on 8787 when that port is free (only a developer's own `npm start` uses it:
 * other stacks pick ports from 20000 up); when it is taken, the stack gets a free port and
 * `127.0.0.1:8787` in the commands — that and nothing else — is rewritten to it, with a warning.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, symlink, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_EDGES } from '../../infra/local/edges-config.ts'
import { isPortFree, pickFreePort } from '../../infra/local/ports.ts'
import { type DocBlock, extractBlocks, TESTED_DOCS } from '../helpers/readme-blocks.ts'
import { type E2eStack, REPO_ROOT, startStack } from './helpers/stack.ts'

/** The port the README's commands name (npm start's default). */
const README_PORT = 8787
/** A block's limit: the quick start waits on two rollouts (5 minutes each at most). */
const BLOCK_MS = 11 * 60_000
const TEST_MS = BLOCK_MS + 60_000

const extracted = TESTED_DOCS.map((file) =>
  extractBlocks(readFileSync(join(REPO_ROOT, file), 'utf8'), file)
)
const runnable = extracted.flatMap((e) => e.blocks).filter((b) => b.marker?.kind === 'local-stack')

let stack: E2eStack | undefined
let scratch = ''
let links: string[] = []
let rewrite = (text: string) => text

/** The environment of a user's shell in the scratch folder after the quick start's export. */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('EDGEPLANE_') && !/^npm_/i.test(k))
  )
  return {
    ...env,
    KUBECONFIG: join(scratch, '.edgeplane', 'kubeconfig'),
    KUBECACHEDIR: join(scratch, 'kube-cache'),
  }
}

type Ran = { code: number | null; output: string }

/** Runs `text` with `bash -euo pipefail` in the scratch folder; kills its group after BLOCK_MS. */
function runBlock(text: string): Promise<Ran> {
  const child: ChildProcess = spawn('bash', ['-euo', 'pipefail', '-c', text], {
    cwd: scratch,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (d: Buffer) => {
    output += d.toString()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const timer = setTimeout(() => {
    if (child.pid) process.kill(-child.pid, 'SIGKILL')
  }, BLOCK_MS)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

const where = (b: DocBlock) => `${b.file}:${b.line}`

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'edgeplane-readme-'))
  for (const entry of await readdir(REPO_ROOT)) {
    if (entry === '.edgeplane' || entry === '.git') continue
    const link = join(scratch, entry)
    await symlink(join(REPO_ROOT, entry), link)
    links.push(link)
  }
  let port = README_PORT
  if (!(await isPortFree(README_PORT))) {
    port = await pickFreePort()
    rewrite = (text) => text.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`)
    console.warn(
      `readme.test.ts: port ${README_PORT} is in use (an npm start of yours?); the stack listens on ${port} and the commands' 127.0.0.1:${README_PORT} is rewritten to it`
    )
  }
  stack = await startStack({ dataDir: join(scratch, '.edgeplane'), port, edges: DEFAULT_EDGES })
}, 200_000)

afterAll(async () => {
  await stack?.destroy()
  // The links first, so that removing the folder never reaches into the repository.
  for (const link of links) await unlink(link).catch(() => undefined)
  links = []
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe('the README', () => {
  it('marks every shell block', () => {
    expect(extracted.flatMap((e) => e.problems)).toEqual([])
    expect(runnable.map((b) => b.file)).toContain('README.md')
  })

  for (const block of runnable) {
    it(
      `${where(block)} runs as written against npm start`,
      async () => {
        const r = await runBlock(rewrite(block.text))
        expect(
          r.code,
          `${where(block)} exited ${r.code}:\n${block.text}\n--- output:\n${r.output}`
        ).toBe(0)
      },
      TEST_MS
    )
  }
})
