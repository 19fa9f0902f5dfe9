/**
 * Fuzz categories `names` and `paths`. Names: `.`, `..` and their percent-encodings, slashes,
 * NULs, over-long, unicode, uppercase and empty names, used as object names, namespaces and space
 * names under every verb. Paths: dot segments in and after `/clusters/`, unknown groups,
 * versions and resources, extra segments, doubled slashes, malformed percent-encoding, and
 * dot-segment walks out of the health, edge and hook routes without a token.
 */
import {
  APPLY,
  cmCollection,
  cmKey,
  cmPath,
  configMap,
  JSON_PATCH,
  JSON_TYPE,
  MERGE,
  prefix,
  type Where,
} from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

/** Bad names as they appear in a path segment; `empty` ones address the collection instead. */
export const BAD_NAMES: { segment: string; label: string; empty?: boolean }[] = [
  { segment: '.', label: 'dot' },
  { segment: '..', label: 'dot-dot' },
  { segment: '%2e', label: '%2e' },
  { segment: '%2e%2e', label: '%2e%2e' },
  { segment: '%2E%2e', label: '%2E%2e' },
  { segment: '.%2e', label: '.%2e' },
  { segment: '%2e.', label: '%2e.' },
  { segment: '...', label: 'three dots' },
  { segment: 'a%2fb', label: 'encoded slash' },
  { segment: '%2f', label: 'lone encoded slash' },
  { segment: '%5c..', label: 'backslash dot-dot' },
  { segment: 'a%00b', label: 'NUL' },
  { segment: '%20', label: 'space' },
  { segment: 'x'.repeat(254), label: '254 chars' },
  { segment: 'x'.repeat(5000), label: '5000 chars' },
  { segment: '%C3%B1ame', label: 'unicode' },
  { segment: '%F0%9F%92%A9', label: 'emoji' },
  { segment: 'UPPER', label: 'uppercase' },
  { segment: '-lead', label: 'leading dash' },
  { segment: 'a..b', label: 'double dot inside' },
  { segment: '%', label: 'lone percent' },
  { segment: '%zz', label: 'bad percent' },
  { segment: '%c0%ae%c0%ae', label: 'overlong UTF-8 dots' },
  { segment: '*', label: 'star' },
  { segment: '', label: 'empty', empty: true },
]

const VERBS: { method: string; contentType?: string; body?: (name: string) => string }[] = [
  { method: 'GET' },
  { method: 'DELETE' },
  {
    method: 'PUT',
    contentType: JSON_TYPE,
    body: (n) => JSON.stringify(configMap(n, { hit: 'put' })),
  },
  { method: 'PATCH', contentType: MERGE, body: () => '{"data":{"hit":"merge"}}' },
  {
    method: 'PATCH',
    contentType: JSON_PATCH,
    body: () => '[{"op":"add","path":"/data/hit","value":"json"}]',
  },
  {
    method: 'PATCH',
    contentType: APPLY,
    body: (n) => JSON.stringify(configMap(n, { hit: 'apply' })),
  },
  {
    method: 'POST',
    contentType: JSON_TYPE,
    body: (n) => JSON.stringify(configMap(n, { hit: 'post' })),
  },
]

export function nameCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  for (const bad of BAD_NAMES) {
    for (const v of VERBS) {
      const where = rng.pick(['root', 'space'] as Where[])
      const decoded = safeDecode(bad.segment)
      const write = v.method !== 'GET'
      const body = v.body?.(decoded)
      const base = {
        category: 'names',
        token: 'admin' as const,
        write,
        ...(v.contentType ? { contentType: v.contentType } : {}),
        ...(body !== undefined ? { body } : {}),
      }
      // as an object name
      if (!bad.empty)
        out.push({
          ...base,
          label: `${v.method} ${v.contentType ?? ''} configmap named ${bad.label}`,
          method: v.method,
          path: cmPath(fx, where, bad.segment),
          mustRefuse: true,
          touches: [],
        })
      // as a namespace
      out.push({
        ...base,
        label: `${v.method} ${v.contentType ?? ''} in namespace ${bad.label}`,
        method: v.method,
        path: `${prefix(fx, where)}/api/v1/namespaces/${bad.segment}/configmaps/cm-a`,
        mustRefuse: !bad.empty || write,
        touches: [],
      })
      // as the name of a Namespace object
      if (!bad.empty && v.method !== 'POST')
        out.push({
          ...base,
          label: `${v.method} namespace object named ${bad.label}`,
          method: v.method,
          path: `${prefix(fx, where)}/api/v1/namespaces/${bad.segment}`,
          mustRefuse: true,
          touches: [],
        })
      // as a space
      out.push({
        ...base,
        label: `${v.method} in space ${bad.label}`,
        method: v.method,
        path: `/clusters/${bad.segment}/api/v1/namespaces/${fx.namespace}/configmaps/cm-a`,
        mustRefuse: !bad.empty && bad.segment !== '*',
        touches: [],
      })
      // in a create body
      if (v.method === 'POST')
        out.push({
          ...base,
          label: `create configmap with metadata.name ${bad.label}`,
          method: 'POST',
          path: cmCollection(fx, where),
          body: JSON.stringify(configMap(decoded)),
          mustRefuse: true,
          touches: [],
        })
    }
  }
  return rng.shuffle(out)
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

export function pathCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const ns = fx.namespace
  const sp = `root:${fx.space}`
  const paths: { path: string; refuse: boolean; token?: FuzzRequest['token'] }[] = [
    { path: '/clusters/..', refuse: true },
    { path: '/clusters/../api/v1/namespaces', refuse: true },
    { path: `/clusters/../api/v1/namespaces/${ns}/configmaps/cm-a`, refuse: true },
    { path: '/clusters/%2e%2e/api/v1/namespaces', refuse: true },
    { path: `/clusters/%2e%2e/api/v1/namespaces/${ns}/configmaps/cm-a`, refuse: true },
    { path: '/clusters/./api/v1/namespaces', refuse: true },
    { path: '/clusters/%2e/api/v1/namespaces', refuse: true },
    { path: `/clusters/${sp}/../api/v1/namespaces/${ns}/configmaps/cm-a`, refuse: true },
    { path: `/clusters/${sp}/%2e%2e/%2e%2e/api/v1/namespaces`, refuse: true },
    {
      path: `/clusters/${sp}/api/v1/namespaces/${ns}/configmaps/../../../namespaces/${ns}`,
      refuse: true,
    },
    {
      path: `/clusters/${sp}/api/v1/namespaces/${ns}/configmaps/%2e%2e/%2e%2e/${ns}`,
      refuse: true,
    },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/../cm-b`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/%2e%2e/cm-b`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/./cm-a`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/%2e%2e/${ns}`, refuse: true },
    { path: '/clusters/', refuse: true },
    { path: '/clusters', refuse: true },
    { path: '/clusters//api/v1/namespaces', refuse: true },
    { path: '/clusters/root:nope/api/v1/namespaces', refuse: true },
    { path: '/clusters/ROOT/api/v1/namespaces', refuse: true },
    { path: '/clusters/root::x/api/v1/namespaces', refuse: true },
    { path: '/clusters/root:/api/v1/namespaces', refuse: true },
    { path: '/clusters/%00/api/v1/namespaces', refuse: true },
    { path: `/clusters/${'x'.repeat(3000)}/api/v1/namespaces`, refuse: true },
    { path: '/clusters/root%3Aespw/api/v1/namespaces/default', refuse: false },
    { path: '/apis/nope.example.com/v1/things', refuse: true },
    { path: '/apis/apps/v9/deployments', refuse: true },
    { path: '/apis/apps/v1/nopes', refuse: true },
    { path: '/api/v2/pods', refuse: true },
    { path: '/api/v1/nopes', refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/extra/more`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/status`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/scale`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/%2e%2e`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/nopes/x`, refuse: true },
    { path: `/api/v1/namespaces/${ns}/namespaces/${ns}`, refuse: true },
    { path: `//api//v1//namespaces//${ns}//configmaps//cm-a`, refuse: false },
    { path: `/api/v1/namespaces/${ns}/configmaps/cm-a/`, refuse: false },
    { path: '/apis/', refuse: false },
    { path: '/openapi/v3/apis/nope/v1', refuse: true },
    { path: '/openapi/v3/api/v9', refuse: true },
    { path: '/openapi/v2/x', refuse: true },
    { path: '/openapi/v3/apis/apps/v1/extra', refuse: true },
    { path: '/version/x', refuse: true },
    { path: '/%', refuse: true },
    { path: '/%zz', refuse: true },
    { path: `/api/v1/namespaces/%zz/configmaps`, refuse: true },
    { path: '/api/v1/namespaces/fuzz/configmaps/%E0%A4%A', refuse: true },
    { path: '/nothing/here', refuse: true },
    { path: '/healthz/../api/v1/secrets', refuse: true, token: 'none' },
    { path: '/readyz/%2e%2e/api/v1/namespaces', refuse: true, token: 'none' },
    { path: '/livez/..%2f..%2fapi/v1/namespaces', refuse: true, token: 'none' },
    { path: '/edge/v1/../../api/v1/namespaces', refuse: true, token: 'edge' },
    {
      path: `/edge/v1/mailboxes/${fx.mailbox}/../../../api/v1/namespaces`,
      refuse: true,
      token: 'edge',
    },
    {
      path: `/edge/v1/mailboxes/${fx.mailbox}/%2e%2e/%2e%2e/%2e%2e/api/v1/namespaces`,
      refuse: true,
      token: 'edge',
    },
    {
      path: `/edge/v1/mailboxes/${fx.mailbox}/..%2f..%2f..%2fapi/v1/namespaces`,
      refuse: true,
      token: 'edge',
    },
    {
      path: `/edge/v1/mailboxes/${fx.mailbox}/desired/../../${fx.otherMailbox}/desired`,
      refuse: true,
      token: 'edge',
    },
    { path: '/hooks/../api/v1/namespaces', refuse: true, token: 'user' },
    { path: '/api/v1/../../hooks/mailbox', refuse: true, token: 'user' },
    { path: `/clusters/${sp}/../root/api/v1/namespaces`, refuse: true, token: 'user' },
    {
      path: `/clusters/${sp}/api/v1/namespaces/../../../../clusters/root/api/v1/namespaces`,
      refuse: true,
      token: 'user',
    },
  ]
  const out: FuzzRequest[] = []
  for (const p of paths) {
    // an odd but valid path is only read and patched: deleting through it would be legitimate
    for (const method of p.refuse ? ['GET', 'DELETE', 'PATCH'] : ['GET', 'PATCH']) {
      const write = method !== 'GET'
      out.push({
        category: 'paths',
        label: `${method} ${p.path.slice(0, 60)}`,
        method,
        path: p.path,
        token: p.token ?? 'admin',
        write,
        ...(method === 'PATCH'
          ? { contentType: MERGE, body: '{"metadata":{"labels":{"fuzz-hit":"yes"}}}' }
          : {}),
        // a refused GET stays refused as a write; an odd but valid path may accept a patch
        mustRefuse: p.refuse,
        touches: p.refuse ? [] : [cmKey(fx, 'root', 'cm-a')],
      })
    }
  }
  return rng.shuffle(out)
}
