/**
 * Runs one of the client scripts beside this file (python-client.py, ruby-client.rb) with the
 * system interpreter that loads Debian's client package (/usr/bin/python3, /usr/bin/ruby; PATH's
 * python3 may be another one) and reads back what it printed: one JSON object per line, keyed by
 * its `step`. `step(name)` returns a step's fields, or throws with the script's own error (the
 * failed request's status and body) so a failing assertion says what the hub answered. The script
 * runs with a temporary folder of its own as TMPDIR, removed after it (the Python DynamicClient
 * caches discovery in the temporary folder).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runProgram } from '../helpers/run-program.ts'

const HERE = dirname(fileURLToPath(import.meta.url))

export type StepLine = Record<string, unknown> & { step: string }

export type ScriptRun = {
  code: number | null
  stdout: string
  stderr: string
  lines: StepLine[]
  /** The fields a step printed; throws when it is missing or printed an error. */
  step(name: string): Record<string, unknown>
}

function parseLines(stdout: string): StepLine[] {
  const lines: StepLine[] = []
  for (const text of stdout.split('\n')) {
    if (!text.startsWith('{')) continue
    try {
      const parsed = JSON.parse(text) as StepLine
      if (typeof parsed.step === 'string') lines.push(parsed)
    } catch {
      // not one of the script's lines
    }
  }
  return lines
}

export async function runClientScript(
  interpreter: string,
  script: string,
  args: string[],
  timeoutMs = 150_000
): Promise<ScriptRun> {
  const scratch = await mkdtemp(join(tmpdir(), 'client-script-'))
  const { code, stdout, stderr } = await runProgram(interpreter, [join(HERE, script), ...args], {
    timeoutMs,
    env: { TMPDIR: scratch },
  }).finally(() => rm(scratch, { recursive: true, force: true }))
  const lines = parseLines(stdout)
  const step = (name: string) => {
    const line = lines.find((l) => l.step === name)
    if (!line) throw new Error(`${script} printed no "${name}" step (exit ${code}):\n${stderr}`)
    if ('error' in line) throw new Error(`${script} step "${name}" failed: ${JSON.stringify(line)}`)
    return line
  }
  return { code, stdout, stderr, lines, step }
}
