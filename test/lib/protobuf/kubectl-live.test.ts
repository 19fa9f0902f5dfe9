/**
 * Live check against the kubectl on PATH: every generator case is run for real against a capture
 * hub, and the protobuf body kubectl sent must decode to exactly what its client-side dry run
 * renders (after dropping nulls and empty objects). The hub then stores the decoded object, so
 * each create must also succeed end to end.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeKubeProtobuf } from '../../../lib/protobuf/decode-kube.ts'
import { type CaptureHub, startCaptureHub } from './helpers/capture-hub.ts'
import {
  CASE_NAMESPACE,
  type CaseFiles,
  GENERATOR_CASES,
  writeCaseFiles,
} from './helpers/generator-cases.ts'
import { captureCase, requireKubectl } from './helpers/kubectl-capture.ts'
import { pruneEmpty } from './helpers/normalize.ts'

describe('kubectl create <generator> against a capture hub', () => {
  let dir = ''
  let hub: CaptureHub | undefined
  let files: CaseFiles | undefined

  beforeAll(async () => {
    await requireKubectl()
    dir = await mkdtemp(join(tmpdir(), 'pb-live-'))
    hub = await startCaptureHub(dir, CASE_NAMESPACE)
    files = await writeCaseFiles(dir)
  }, 60_000)

  afterAll(async () => {
    await hub?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  for (const c of GENERATOR_CASES) {
    it(`${c.name}: the protobuf body decodes to the dry-run object and the hub stores it`, async () => {
      if (!hub || !files) throw new Error('the capture hub did not start')
      const got = await captureCase(hub, { cacheDir: join(dir, 'cache'), files }, c)
      expect(decodeKubeProtobuf(got.body)).toEqual(pruneEmpty(got.expected))
      expect(got.created.code, got.created.stderr).toBe(0)
    }, 60_000)
  }
})
