/**
 * The `kubectl create <generator>` invocations (plus `kubectl autoscale`, which also builds a
 * typed object) whose protobuf bodies the decoder must handle, in an order where each one finds
 * what it needs (the namespace first, the cron job before the job made from it). Their input
 * files (a text file, a non-UTF-8 file, a throwaway self-signed TLS pair made with node:crypto)
 * are written to a temporary directory per run by `writeCaseFiles`.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createSelfSignedCert } from '../../../../infra/local/tls-cert.ts'

export const CASE_NAMESPACE = 'pb-demo'

export type CaseFiles = { text: string; binary: string; cert: string; key: string }

export type GeneratorCase = { name: string; args: (f: CaseFiles) => string[] }

/** Placeholders used instead of temporary paths when args are written to fixtures. */
export const PLACEHOLDER_FILES: CaseFiles = {
  text: '<text-file>',
  binary: '<binary-file>',
  cert: '<tls.crt>',
  key: '<tls.key>',
}

const create = (...args: string[]) => ['create', ...args]

export const GENERATOR_CASES: GeneratorCase[] = [
  { name: 'namespace', args: () => create('namespace', CASE_NAMESPACE) },
  {
    name: 'configmap',
    args: (f) =>
      create(
        'configmap',
        'pb-cm',
        '--from-literal=a=1',
        '--from-literal=empty=',
        `--from-file=notes.txt=${f.text}`,
        `--from-file=blob=${f.binary}`
      ),
  },
  {
    name: 'secret-generic',
    args: (f) =>
      create(
        'secret',
        'generic',
        'pb-secret',
        '--from-literal=user=admin',
        `--from-file=blob=${f.binary}`,
        '--type=example.com/custom'
      ),
  },
  {
    name: 'secret-tls',
    args: (f) => create('secret', 'tls', 'pb-tls', `--cert=${f.cert}`, `--key=${f.key}`),
  },
  {
    name: 'secret-docker-registry',
    args: () =>
      create(
        'secret',
        'docker-registry',
        'pb-reg',
        '--docker-server=registry.example.com',
        '--docker-username=u',
        '--docker-password=p',
        '--docker-email=u@example.com'
      ),
  },
  { name: 'serviceaccount', args: () => create('serviceaccount', 'pb-sa') },
  {
    name: 'deployment',
    args: () =>
      create(
        'deployment',
        'pb-dep',
        '--image=nginx:1.27',
        '--replicas=2',
        '--port=80',
        '--',
        'nginx',
        '-g',
        'daemon off;'
      ),
  },
  {
    name: 'deployment-zero-replicas',
    args: () => create('deployment', 'pb-dep0', '--image=nginx', '--image=redis', '--replicas=0'),
  },
  {
    name: 'job',
    args: () => create('job', 'pb-job', '--image=busybox', '--', 'sh', '-c', 'echo hi'),
  },
  {
    name: 'cronjob',
    args: () =>
      create(
        'cronjob',
        'pb-cron',
        '--image=busybox',
        '--schedule=*/5 * * * *',
        '--restart=OnFailure',
        '--',
        'date'
      ),
  },
  { name: 'job-from-cronjob', args: () => create('job', 'pb-job-from', '--from=cronjob/pb-cron') },
  {
    name: 'service-clusterip',
    args: () => create('service', 'clusterip', 'pb-svc', '--tcp=80:8080', '--tcp=443:https'),
  },
  {
    name: 'service-headless',
    args: () => create('service', 'clusterip', 'pb-headless', '--clusterip=None'),
  },
  {
    name: 'service-nodeport',
    args: () => create('service', 'nodeport', 'pb-np', '--tcp=80:8080', '--node-port=30080'),
  },
  {
    name: 'service-loadbalancer',
    args: () => create('service', 'loadbalancer', 'pb-lb', '--tcp=5678:8080'),
  },
  {
    name: 'service-externalname',
    args: () =>
      create('service', 'externalname', 'pb-ext', '--external-name=db.example.com', '--tcp=5432'),
  },
  {
    name: 'role',
    args: () =>
      create(
        'role',
        'pb-role',
        '--verb=get',
        '--verb=list',
        '--resource=pods',
        '--resource=deployments.apps',
        '--resource-name=web'
      ),
  },
  {
    name: 'clusterrole',
    args: () => create('clusterrole', 'pb-cr', '--verb=get', '--non-resource-url=/logs/*'),
  },
  {
    name: 'clusterrole-aggregated',
    args: () =>
      create('clusterrole', 'pb-agg', '--aggregation-rule=rbac.example.com/aggregate-to-pb=true'),
  },
  {
    name: 'rolebinding',
    args: () =>
      create(
        'rolebinding',
        'pb-rb',
        '--role=pb-role',
        '--user=alice',
        '--group=devs',
        `--serviceaccount=${CASE_NAMESPACE}:pb-sa`
      ),
  },
  {
    name: 'clusterrolebinding',
    args: () =>
      create(
        'clusterrolebinding',
        'pb-crb',
        '--clusterrole=view',
        '--user=bob',
        '--serviceaccount=other:robot'
      ),
  },
  { name: 'quota', args: () => create('quota', 'pb-quota', '--hard=cpu=1,pods=2,memory=1Gi') },
  {
    name: 'quota-scoped',
    args: () => create('quota', 'pb-quota-scoped', '--hard=pods=5', '--scopes=BestEffort'),
  },
  {
    name: 'priorityclass',
    args: () =>
      create(
        'priorityclass',
        'pb-pc',
        '--value=1000',
        '--description=for tests',
        '--preemption-policy=Never'
      ),
  },
  {
    name: 'priorityclass-zero',
    args: () => create('priorityclass', 'pb-pc0', '--value=0', '--global-default=true'),
  },
  {
    name: 'pdb-min-available',
    args: () => create('pdb', 'pb-pdb', '--selector=app=x', '--min-available=1'),
  },
  {
    name: 'pdb-max-unavailable',
    args: () => create('pdb', 'pb-pdb2', '--selector=app=y', '--max-unavailable=50%'),
  },
  {
    name: 'ingress',
    args: () =>
      create(
        'ingress',
        'pb-ing',
        '--class=nginx',
        '--rule=foo.com/bar=svc:80,tls=pb-tls',
        '--rule=foo.com/baz*=svc2:http',
        '--default-backend=def:8080',
        '--annotation=team=web'
      ),
  },
  {
    name: 'autoscale',
    args: () => ['autoscale', 'deployment', 'pb-dep', '--min=1', '--max=3', '--cpu-percent=80'],
  },
]

export async function writeCaseFiles(dir: string): Promise<CaseFiles> {
  const files: CaseFiles = {
    text: join(dir, 'notes.txt'),
    binary: join(dir, 'blob.bin'),
    cert: join(dir, 'tls.crt'),
    key: join(dir, 'tls.key'),
  }
  await writeFile(files.text, 'line one\nline two: ü\n')
  await writeFile(files.binary, new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x41]))
  const pair = createSelfSignedCert({
    commonName: 'pb.example.com',
    dnsNames: ['pb.example.com'],
    ipAddresses: [],
    days: 1,
  })
  await writeFile(files.cert, pair.certPem)
  await writeFile(files.key, pair.keyPem)
  return files
}
