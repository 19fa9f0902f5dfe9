/**
 * Re-records test/lib/protobuf/fixtures/kubectl-create.json with the kubectl on PATH:
 *   npx node test/lib/protobuf/helpers/record-fixtures.ts
 * Runs every generator case against a capture hub and saves the protobuf bytes kubectl sent and
 * the JSON its client-side dry run rendered, so the unit tests need no kubectl. Run it from the
 * repository root (it formats the file with the project's biome).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startCaptureHub } from './capture-hub.ts'
import { FIXTURE_FILE, type FixtureFile } from './fixtures.ts'
import { CASE_NAMESPACE, GENERATOR_CASES, writeCaseFiles } from './generator-cases.ts'
import { captureCase, requireKubectl } from './kubectl-capture.ts'

const version = await requireKubectl()
const dir = await mkdtemp(join(tmpdir(), 'pb-record-'))
const hub = await startCaptureHub(dir, CASE_NAMESPACE)
try {
  const files = await writeCaseFiles(dir)
  const out: FixtureFile = { kubectl: version, recorded: new Date().toISOString(), cases: [] }
  for (const c of GENERATOR_CASES) {
    const got = await captureCase(hub, { cacheDir: join(dir, 'cache'), files }, c)
    out.cases.push({
      name: got.name,
      args: got.args,
      body: Buffer.from(got.body).toString('base64'),
      expected: got.expected,
    })
  }
  await writeFile(FIXTURE_FILE, `${JSON.stringify(out, null, 2)}\n`)
  await promisify(execFile)('node_modules/.bin/biome', ['format', '--write', FIXTURE_FILE])
  console.log(`recorded ${out.cases.length} cases with kubectl ${version} into ${FIXTURE_FILE}`)
} finally {
  await hub.close()
  await rm(dir, { recursive: true, force: true })
}
