/**
 * The last lines of a log file, for failure messages: when wrangler dies or never becomes
 * healthy, the start program prints this tail so the cause is visible without opening the file.
 * Reads at most the final 64 KiB; terminal colour codes are removed.
 */
import { open } from 'node:fs/promises'

const MAX_BYTES = 64 * 1024

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escape sequences
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

export async function tailFile(path: string, lines = 40): Promise<string> {
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return ''
  try {
    const { size } = await handle.stat()
    const length = Math.min(size, MAX_BYTES)
    const buf = Buffer.alloc(length)
    await handle.read(buf, 0, length, size - length)
    const all = stripAnsi(buf.toString('utf8')).split('\n')
    if (all.at(-1) === '') all.pop()
    return all.slice(-lines).join('\n')
  } finally {
    await handle.close()
  }
}

/** `reason`, followed by the last lines of `logFile` when it has any. */
export async function withLogTail(reason: string, logFile: string, lines = 40): Promise<string> {
  const tail = await tailFile(logFile, lines)
  return tail ? `${reason}; last lines of ${logFile}:\n${tail}` : reason
}
