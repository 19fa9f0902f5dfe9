/**
 * Runs a program to its end for a test and collects what it wrote: stdin closed, stdout and
 * stderr captured apart, SIGKILL after `timeoutMs`. Resolves once its output is closed with the
 * exit code (null when killed); rejects when it cannot be started.
 */
import { spawn } from 'node:child_process'

export type ProgramRun = { code: number | null; stdout: string; stderr: string }

export type ProgramOptions = {
  cwd?: string
  /** Added to this process's environment. */
  env?: Record<string, string>
  timeoutMs?: number
}

export function runProgram(
  command: string,
  args: string[],
  opts: ProgramOptions = {}
): Promise<ProgramRun> {
  const child = spawn(command, args, {
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 150_000)
  return new Promise((resolve, reject) => {
    child.once('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
