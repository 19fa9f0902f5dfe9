/**
 * A hub for capturing what kubectl really sends: the project's own hub app over a fresh dynalite
 * store (so discovery, GETs and creates behave as in production), served through a small
 * node:https front (kubectl sends no bearer token to plain http) that records the raw bytes of
 * every protobuf POST before passing the request on. `startCaptureHub(dir, namespace)` writes a
 * kubeconfig for `root` (trusting the throwaway certificate, with the admin token) into `dir`.
 */
import { writeFile } from 'node:fs/promises'
import type http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { isProtobuf } from '../../../../functions/api/protobuf-body.ts'
import { createNodeApp } from '../../../../functions/node-server.ts'
import { createLocalHubCert } from '../../../../infra/local/tls-cert.ts'
import { bootstrapHub } from '../../../../lib/hub/bootstrap.ts'
import { createTestStore } from '../../../helpers/dynalite.ts'

export const CAPTURE_TOKEN = 'protobuf-capture-admin'

export type CapturedBody = { path: string; contentType: string; body: Uint8Array }

export type CaptureHub = {
  url: string
  kubeconfig: string
  captured: CapturedBody[]
  close(): Promise<void>
}

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

function toHeaders(req: http.IncomingMessage): Headers {
  const h = new Headers()
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one)
  }
  return h
}

function kubeconfigYaml(server: string, caPem: string, namespace: string): string {
  const ca = Buffer.from(caPem).toString('base64')
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: hub, cluster: {server: "${server}", certificate-authority-data: ${ca}}}]`,
    `users: [{name: admin, user: {token: ${CAPTURE_TOKEN}}}]`,
    `contexts: [{name: hub, context: {cluster: hub, user: admin, namespace: ${namespace}}}]`,
    'current-context: hub',
    '',
  ].join('\n')
}

/** Starts the capture hub; `namespace` becomes the kubeconfig context's namespace. */
export async function startCaptureHub(dir: string, namespace: string): Promise<CaptureHub> {
  const store = await createTestStore()
  const { app, deps, settle } = createNodeApp({ objects: store.objects, kv: store.kv })
  const captured: CapturedBody[] = []
  const tls = createLocalHubCert()
  const server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    void (async () => {
      const body = await readAll(req)
      const contentType = req.headers['content-type'] ?? ''
      if (req.method === 'POST' && isProtobuf(contentType))
        captured.push({ path: req.url ?? '', contentType, body: new Uint8Array(body) })
      const url = `https://${req.headers.host}${req.url}`
      const hasBody = body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD'
      const answer = await app.fetch(
        new Request(url, {
          method: req.method,
          headers: toHeaders(req),
          ...(hasBody ? { body: new Uint8Array(body) } : {}),
        })
      )
      const headers: Record<string, string> = {}
      answer.headers.forEach((v, k) => {
        if (k !== 'transfer-encoding' && k !== 'content-length') headers[k] = v
      })
      res.writeHead(answer.status, headers)
      res.end(Buffer.from(await answer.arrayBuffer()))
    })().catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(e))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  await bootstrapHub(deps, { adminToken: CAPTURE_TOKEN, baseUrl: url })
  const kubeconfig = join(dir, 'kubeconfig')
  await writeFile(kubeconfig, kubeconfigYaml(`${url}/clusters/root`, tls.certPem, namespace))
  return {
    url,
    kubeconfig,
    captured,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await settle()
      await store.close()
    },
  }
}
