/**
 * The one line a simulated edge process writes to stdout once its API answers, and its reader for
 * the process that spawned it (`npm start`): a JSON object with `ready: true`, the edge's name, its
 * API URL, its table and its pid. `waitForReadyLine` reads a child's stdout until that line comes,
 * and fails when the child exits first or the time runs out.
 */
import type { Readable } from 'node:stream'
import { z } from 'zod'

export const ReadyLine = z.object({
  ready: z.literal(true),
  name: z.string(),
  url: z.string(),
  table: z.string(),
  pid: z.number().int(),
})
export type ReadyLine = z.infer<typeof ReadyLine>

export function formatReadyLine(info: Omit<ReadyLine, 'ready'>): string {
  return `${JSON.stringify({ ready: true, ...info })}\n`
}

/** The ready line's content, or undefined for any other line. */
export function parseReadyLine(line: string): ReadyLine | undefined {
  try {
    const parsed = ReadyLine.safeParse(JSON.parse(line))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Resolves with the ready line read from `stdout`; rejects if the stream ends first or on timeout. */
export function waitForReadyLine(stdout: Readable, timeoutMs = 60_000): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let buffer = ''
    const done = (err?: Error, line?: ReadyLine) => {
      clearTimeout(timer)
      stdout.off('data', onData)
      stdout.off('end', onEnd)
      if (line) resolve(line)
      else reject(err)
    }
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString()
      let nl = buffer.indexOf('\n')
      while (nl >= 0) {
        const found = parseReadyLine(buffer.slice(0, nl))
        buffer = buffer.slice(nl + 1)
        if (found) return done(undefined, found)
        nl = buffer.indexOf('\n')
      }
    }
    const onEnd = () => done(new Error('the simulated edge exited before it was ready'))
    const timer = setTimeout(
      () => done(new Error(`the simulated edge was not ready within ${timeoutMs} ms`)),
      timeoutMs
    )
    stdout.on('data', onData)
    stdout.on('end', onEnd)
  })
}
