/**
 * Temporary folders for tests, each removed by the test or file that made it, so a run leaves
 * nothing behind under the OS temp folder. `tempDir` is for a test (its body or a beforeEach) and
 * removes the folder when that test finishes; `fileTempDir` is for a folder a whole file (or
 * describe block) shares: called while the file is collected, it registers its own beforeAll and
 * afterAll in that file. Fixtures that make a folder in a beforeAll and have a close() of their own
 * use makeTempDir and removeTempDir. No state lives in this module, so files sharing one module
 * graph (isolate: false) do not see each other's folders.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, onTestFinished } from 'vitest'

/** A fresh folder under the OS temp folder whose name starts with `prefix`; the caller removes it. */
export const makeTempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), prefix))

/** Removes `dir` and everything in it; nothing happens if it is already gone. */
export const removeTempDir = (dir: string): Promise<void> =>
  rm(dir, { recursive: true, force: true, maxRetries: 3 })

/** A fresh temporary folder, removed when the current test finishes (call in a test or beforeEach). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix)
  try {
    onTestFinished(() => removeTempDir(dir))
  } catch (e) {
    await removeTempDir(dir)
    throw new Error(
      `tempDir(${JSON.stringify(prefix)}) outside a test: use fileTempDir for a folder a file shares`,
      { cause: e }
    )
  }
  return dir
}

/**
 * A temporary folder for the tests of the calling file or describe block: made before its first
 * test, removed after its last. Call while the file is collected (top level or a describe body);
 * the returned function gives the folder's path once the block's beforeAll hooks have begun, so a
 * beforeAll registered after this call can already use it.
 */
export function fileTempDir(prefix: string): () => string {
  let dir: string | undefined
  beforeAll(async () => {
    dir = await makeTempDir(prefix)
  })
  afterAll(async () => {
    if (dir) await removeTempDir(dir)
    dir = undefined
  })
  return () => {
    if (!dir) throw new Error(`fileTempDir(${JSON.stringify(prefix)}) used outside its tests`)
    return dir
  }
}
