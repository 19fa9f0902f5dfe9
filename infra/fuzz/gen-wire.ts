/**
 * Fuzz category `wire`: requests an HTTP client library would refuse to send or would rewrite,
 * written to the socket as raw bytes — unknown and malformed methods, CONNECT, an over-long URI,
 * spaces and raw non-ASCII bytes in the path, a fragment, an absolute-form target, conflicting
 * Content-Length and Transfer-Encoding, a broken chunked body, invalid header names. Errors
 * produced before the app still need a kube Status body. `{AUTH}` and `{HOST}` are filled in by
 * the sender.
 */
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

const END = '\r\n'

function req(lines: string[], body = ''): string {
  return `${lines.join(END)}${END}${END}${body}`
}

export function wireCases(_rng: Rng, fx: Fixture): FuzzRequest[] {
  const cm = `/api/v1/namespaces/${fx.namespace}/configmaps`
  const std = ['Host: {HOST}', 'Authorization: {AUTH}', 'Connection: close']
  const cases: { label: string; raw: string; write: boolean; refuse: boolean }[] = [
    {
      label: 'unknown method FUZZ',
      raw: req([`FUZZ ${cm} HTTP/1.1`, ...std]),
      write: true,
      refuse: true,
    },
    {
      label: 'lowercase method',
      raw: req([`get ${cm} HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'method with a slash',
      raw: req([`GE/T ${cm} HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'CONNECT',
      raw: req(['CONNECT 127.0.0.1:1 HTTP/1.1', ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'URI of 20 KB',
      raw: req([`GET ${cm}/${'x'.repeat(20_000)} HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'URI of 70 KB in the query',
      raw: req([`GET ${cm}?labelSelector=${'a'.repeat(70_000)} HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'space in the path',
      raw: req([`GET ${cm}/a b HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'raw non-ASCII bytes in the path',
      raw: req([`GET ${cm}/\u00e9\u00ff HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    {
      label: 'raw dot-dot walking out of a namespace',
      raw: req([`DELETE ${cm}/.. HTTP/1.1`, ...std]),
      write: true,
      refuse: true,
    },
    {
      label: 'raw dot deleting the collection',
      raw: req([`DELETE ${cm}/. HTTP/1.1`, ...std]),
      write: true,
      refuse: true,
    },
    {
      label: 'fragment in the target',
      raw: req([`GET ${cm}#frag HTTP/1.1`, ...std]),
      write: false,
      refuse: false,
    },
    {
      label: 'absolute-form target',
      raw: req([`GET http://{HOST}${cm} HTTP/1.1`, ...std]),
      write: false,
      refuse: false,
    },
    {
      label: 'asterisk target',
      raw: req(['OPTIONS * HTTP/1.1', ...std]),
      write: false,
      refuse: false,
    },
    {
      label: 'relative target',
      raw: req([`GET api/v1/namespaces HTTP/1.1`, ...std]),
      write: false,
      refuse: true,
    },
    { label: 'HTTP/0.9', raw: req([`GET ${cm} HTTP/0.9`, ...std]), write: false, refuse: false },
    {
      label: 'HTTP/2.0 version on HTTP/1 framing',
      raw: req([`GET ${cm} HTTP/2.0`, ...std]),
      write: false,
      refuse: false,
    },
    {
      label: 'no Host header',
      raw: req([`GET ${cm} HTTP/1.1`, 'Authorization: {AUTH}', 'Connection: close']),
      write: false,
      refuse: true,
    },
    {
      label: 'Content-Length and Transfer-Encoding',
      raw: req(
        [
          `POST ${cm} HTTP/1.1`,
          ...std,
          'Content-Type: application/json',
          'Content-Length: 4',
          'Transfer-Encoding: chunked',
        ],
        '0\r\n\r\n'
      ),
      write: true,
      refuse: true,
    },
    {
      label: 'broken chunked body',
      raw: req(
        [
          `POST ${cm} HTTP/1.1`,
          ...std,
          'Content-Type: application/json',
          'Transfer-Encoding: chunked',
        ],
        'zz\r\n{}\r\n0\r\n\r\n'
      ),
      write: true,
      refuse: true,
    },
    {
      label: 'negative Content-Length',
      raw: req(
        [`POST ${cm} HTTP/1.1`, ...std, 'Content-Type: application/json', 'Content-Length: -1'],
        '{}'
      ),
      write: true,
      refuse: true,
    },
    {
      label: 'two Content-Lengths',
      raw: req(
        [
          `POST ${cm} HTTP/1.1`,
          ...std,
          'Content-Type: application/json',
          'Content-Length: 2',
          'Content-Length: 3',
        ],
        '{} '
      ),
      write: true,
      refuse: true,
    },
    {
      label: 'invalid header name',
      raw: req([`GET ${cm} HTTP/1.1`, ...std, 'Bad Header: x']),
      write: false,
      refuse: true,
    },
    {
      label: 'header with a NUL',
      raw: req([`GET ${cm} HTTP/1.1`, ...std, 'X-Fuzz: a\u0000b']),
      write: false,
      refuse: true,
    },
    {
      label: 'obsolete line folding',
      raw: req([`GET ${cm} HTTP/1.1`, ...std, 'X-Fuzz: a', ' b']),
      write: false,
      refuse: true,
    },
    {
      label: '100 KB of headers',
      raw: req([
        `GET ${cm} HTTP/1.1`,
        ...std,
        ...Array.from({ length: 1000 }, (_, i) => `X-F${i}: ${'h'.repeat(100)}`),
      ]),
      write: false,
      refuse: true,
    },
    {
      label: 'bare LF line endings',
      raw: `GET ${cm} HTTP/1.1\nHost: {HOST}\nAuthorization: {AUTH}\nConnection: close\n\n`,
      write: false,
      refuse: false,
    },
  ]
  return cases.map((c) => ({
    category: 'wire',
    label: c.label,
    method: c.raw.split(' ')[0] ?? '',
    path: c.raw.split(' ')[1] ?? '',
    token: 'admin',
    write: c.write,
    mustRefuse: c.refuse,
    touches: [],
    raw: c.raw,
  }))
}
