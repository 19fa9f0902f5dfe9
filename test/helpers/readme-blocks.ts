/**
 * The fenced code blocks of a markdown document with the test markers written just above them,
 * for the tests that keep the README's commands true (test/docs/readme-blocks.test.ts,
 * test/e2e/readme.test.ts). A marker is an HTML comment alone on the line right above the
 * opening fence (indented like it, inside a list item):
 *
 *   <!-- test: local-stack -->            run as written against one `npm start` stack
 *   <!-- test: skip: <why> -->            cannot run there (a production deploy)
 *   <!-- test: pending: <why> -->         another change will make it runnable
 *   <!-- test: e2e: <test file> -->       run as written by that end-to-end test (a block that
 *                                         needs more than one stack, e.g. a new edge cluster)
 *   <!-- test: same-as: <path> -->        (a data block) equals that file of the repository
 *
 * Every shell block (sh, bash, shell, console, zsh, or no language) needs one; `problems` says
 * which do not, and which markers are malformed or stand above no block. Pure.
 */

/** The documents whose blocks are tested, relative to the repository's root, in reading order. */
export const TESTED_DOCS = ['README.md', 'infra/README.md'] as const

export type BlockMarker =
  | { kind: 'local-stack' }
  | { kind: 'skip' | 'pending'; reason: string }
  | { kind: 'same-as'; path: string }
  | { kind: 'e2e'; path: string }

export type DocBlock = {
  /** The document's name, as given. */
  file: string
  /** 1-based line of the opening fence. */
  line: number
  /** The fence's info string's first word ('' when none). */
  lang: string
  /** The block's content, without the fence's indentation, ending with a newline. */
  text: string
  marker?: BlockMarker
}

export type ExtractedDoc = { blocks: DocBlock[]; problems: string[] }

const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'console', 'zsh'])
const FENCE = /^( *)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/
const MARKER = /^ *<!--\s*test:\s*(.*?)\s*-->\s*$/
const MARKER_LIKE = /^ *<!--\s*test\b/

export const isShellBlock = (b: Pick<DocBlock, 'lang'>) => SHELL_LANGS.has(b.lang.toLowerCase())

/** The marker a comment's words stand for, or a problem. */
function parseMarker(words: string): BlockMarker | string {
  if (words === 'local-stack') return { kind: 'local-stack' }
  const m = /^(skip|pending|same-as|e2e):\s*(.*)$/.exec(words)
  if (!m)
    return `unknown test marker "${words}" (local-stack, skip: <why>, pending: <why>, same-as: <path>, e2e: <test file>)`
  const [, kind, rest = ''] = m
  const wantsPath = kind === 'same-as' || kind === 'e2e'
  if (rest === '') return `the test marker "${kind}" needs ${wantsPath ? 'a path' : 'a reason'}`
  if (kind === 'same-as' || kind === 'e2e') return { kind, path: rest }
  return { kind: kind as 'skip' | 'pending', reason: rest }
}

/** A fence line's content with up to `indent` leading spaces removed. */
const unindent = (line: string, indent: number) =>
  line.slice(Math.min(indent, line.length - line.trimStart().length))

/** The block opened at line `i` and the line after its closing fence (or after the document). */
function readBlock(lines: string[], i: number, open: RegExpExecArray, file: string) {
  const indent = (open[1] ?? '').length
  const fence = open[2] ?? '```'
  const closes = (t: string) => t.length >= fence.length && [...t].every((c) => c === fence[0])
  let j = i + 1
  while (j < lines.length && !closes((lines[j] ?? '').trim())) j++
  const text = lines
    .slice(i + 1, j)
    .map((l) => `${unindent(l, indent)}\n`)
    .join('')
  const block: DocBlock = { file, line: i + 1, lang: open[3] ?? '', text }
  return { block, closed: j < lines.length, next: j + 1 }
}

/** The block's marker from the line above it, and what is wrong with either. */
function markBlock(block: DocBlock, above: string): string[] {
  const problems: string[] = []
  const at = `${block.file}:${block.line - 1}`
  const comment = MARKER.exec(above)
  if (comment) {
    const marker = parseMarker(comment[1] ?? '')
    if (typeof marker === 'string') problems.push(`${at}: ${marker}`)
    else block.marker = marker
  }
  const shell = isShellBlock(block)
  if (shell && !comment)
    problems.push(
      `${block.file}:${block.line}: a shell block without a test marker (<!-- test: local-stack | skip: <why> | pending: <why> --> on the line above)`
    )
  if (shell && block.marker?.kind === 'same-as')
    problems.push(`${at}: same-as is for data blocks; a shell block runs or is skipped`)
  if (!shell && (block.marker?.kind === 'local-stack' || block.marker?.kind === 'e2e'))
    problems.push(`${at}: ${block.marker.kind} is for shell blocks, not ${block.lang}`)
  return problems
}

/** Every fenced block of `markdown`, with its marker, and the problems with markers. */
export function extractBlocks(markdown: string, name: string): ExtractedDoc {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  const problems: string[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i] ?? ''
    const open = FENCE.exec(line)
    if (!open) {
      if (MARKER_LIKE.test(line) && !FENCE.test(lines[i + 1] ?? ''))
        problems.push(`${name}:${i + 1}: a test marker must be the line right above a code block`)
      i++
      continue
    }
    const { block, closed, next } = readBlock(lines, i, open, name)
    if (!closed) problems.push(`${name}:${i + 1}: the code block is never closed`)
    problems.push(...markBlock(block, lines[i - 1] ?? ''))
    blocks.push(block)
    i = next
  }
  return { blocks, problems }
}
