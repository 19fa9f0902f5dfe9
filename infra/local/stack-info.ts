/**
 * `stack.json` in the data folder: where the running local stack listens (hub URL, dynalite
 * endpoint, table, ports, pid of the start program, wrangler's pid, rewritten when the hub
 * supervisor restarts it) and its files, and the watch relay's pid and health port (its
 * /healthz, /readyz and /metrics; absent with EDGEPLANE_RELAY=off; the pid rewritten each time
 * the relay is restarted), and the simulated edges with their agents (pids rewritten likewise,
 * and each agent's health port). Written when the
 * stack is ready and removed on a clean stop; tools and the e2e harness read it (zod-checked) to
 * reach dynalite directly (signing with the key in `dynalite.keyFile`) or to kill the relay.
 */
import { readFile, rm } from 'node:fs/promises'
import { z } from 'zod'
import { writePrivateFile } from './data-dir.ts'

/** One simulated edge cluster: its API, mailbox, folder, and the pids of its server and agent. */
export const EdgeInfoSchema = z.object({
  name: z.string(),
  url: z.string(),
  port: z.number().int(),
  mailbox: z.string(),
  /** `<data>/edges/<name>`: kubeconfig, admin-token, credentials/, agent/, edge.log, agent.log. */
  dir: z.string(),
  /** Absent while the child waits to be restarted. */
  pid: z.number().int().optional(),
  agentPid: z.number().int().optional(),
  /** The agent's /healthz, /readyz and /metrics on 127.0.0.1 (the same after a restart). */
  agentHealthPort: z.number().int().optional(),
})
export type EdgeInfo = z.infer<typeof EdgeInfoSchema>

export const StackInfoSchema = z.object({
  pid: z.number().int(),
  url: z.string(),
  port: z.number().int(),
  dataDir: z.string(),
  kubeconfig: z.string(),
  adminTokenFile: z.string(),
  /** The hub's self-signed certificate (PEM), to trust for https. */
  caFile: z.string(),
  dynalite: z.object({
    endpoint: z.string(),
    port: z.number().int(),
    path: z.string(),
    /** The store key (store-key.ts) a client must sign its requests with. */
    keyFile: z.string().optional(),
  }),
  tableName: z.string(),
  wrangler: z.object({
    pid: z.number().int(),
    /** wrangler dev's own plain-http loopback port, behind the https front on `port`. */
    port: z.number().int().optional(),
    inspectorPort: z.number().int(),
    logFile: z.string(),
    /** How often the hub supervisor restarted wrangler (its pid is rewritten each time). */
    restarts: z.number().int().optional(),
  }),
  relay: z
    .object({
      pid: z.number().int(),
      restarts: z.number().int(),
      logFile: z.string(),
      /** Its /healthz, /readyz and /metrics on 127.0.0.1 (the same after a restart). */
      healthPort: z.number().int().optional(),
    })
    .optional(),
  edges: z.array(EdgeInfoSchema).default([]),
  startedAt: z.string(),
})

export type StackInfo = z.infer<typeof StackInfoSchema>

export async function writeStackInfo(path: string, info: StackInfo): Promise<void> {
  await writePrivateFile(path, `${JSON.stringify(info, null, 2)}\n`)
}

/** The stack.json at `path`, or undefined when it is absent or unreadable. */
export async function readStackInfo(path: string): Promise<StackInfo | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  try {
    const parsed = StackInfoSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

export async function removeStackInfo(path: string): Promise<void> {
  await rm(path, { force: true })
}
