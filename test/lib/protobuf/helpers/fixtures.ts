/**
 * The recorded kubectl protobuf bodies (test/lib/protobuf/fixtures/kubectl-create.json): for each
 * generator case, the args (temporary paths replaced by placeholders), the body kubectl POSTed
 * (base64) and what `--dry-run=client -o json` rendered for the same invocation.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const FIXTURE_FILE = fileURLToPath(
  new URL('../fixtures/kubectl-create.json', import.meta.url)
)

export type FixtureCase = { name: string; args: string[]; body: string; expected: unknown }
export type FixtureFile = { kubectl: string; recorded: string; cases: FixtureCase[] }

export function loadFixtures(): FixtureFile {
  return JSON.parse(readFileSync(FIXTURE_FILE, 'utf8')) as FixtureFile
}

export function fixtureBytes(c: FixtureCase): Uint8Array {
  return new Uint8Array(Buffer.from(c.body, 'base64'))
}
