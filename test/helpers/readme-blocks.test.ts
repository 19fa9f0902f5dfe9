import { describe, expect, it } from 'vitest'
import { extractBlocks, isShellBlock } from './readme-blocks.ts'

const DOC = `# A document

Some text.

<!-- test: local-stack -->
\`\`\`sh
kubectl get ns
echo "two"
\`\`\`

1. A step:

   <!-- test: skip: a production deploy -->
   \`\`\`sh
   aws cloudformation deploy \\
     --stack-name x
   \`\`\`

<!-- test: pending: being made safe -->
\`\`\`bash
npm run edge:bootstrap
\`\`\`

<!-- test: same-as: examples/one.yaml -->
\`\`\`yaml
kind: One
\`\`\`

\`\`\`yaml
kind: Unmarked data is fine
\`\`\`

~~~~text
\`\`\`
a fence inside a longer fence of tildes
~~~~
`

describe('extractBlocks', () => {
  const { blocks, problems } = extractBlocks(DOC, 'DOC.md')

  it('finds every block with its line, language, text and marker', () => {
    expect(problems).toEqual([])
    expect(blocks.map((b) => [b.line, b.lang, b.marker])).toEqual([
      [6, 'sh', { kind: 'local-stack' }],
      [14, 'sh', { kind: 'skip', reason: 'a production deploy' }],
      [20, 'bash', { kind: 'pending', reason: 'being made safe' }],
      [25, 'yaml', { kind: 'same-as', path: 'examples/one.yaml' }],
      [29, 'yaml', undefined],
      [33, 'text', undefined],
    ])
    expect(blocks[0]?.text).toBe('kubectl get ns\necho "two"\n')
  })

  it("removes a list item's indentation from its block", () => {
    expect(blocks[1]?.text).toBe('aws cloudformation deploy \\\n  --stack-name x\n')
  })

  it('ends a block only at a fence of its own kind and length', () => {
    expect(blocks[5]?.text).toBe('```\na fence inside a longer fence of tildes\n')
  })

  it('says which shell blocks have no marker', () => {
    const doc = 'Text\n\n```sh\nls\n```\n\n```\nno language\n```\n\n```yaml\na: 1\n```\n'
    expect(extractBlocks(doc, 'x.md').problems).toEqual([
      'x.md:3: a shell block without a test marker (<!-- test: local-stack | skip: <why> | pending: <why> --> on the line above)',
      'x.md:7: a shell block without a test marker (<!-- test: local-stack | skip: <why> | pending: <why> --> on the line above)',
    ])
  })

  it('needs the marker on the line right above the fence', () => {
    const doc = '<!-- test: local-stack -->\n\n```sh\nls\n```\n'
    expect(extractBlocks(doc, 'x.md').problems).toEqual([
      'x.md:1: a test marker must be the line right above a code block',
      'x.md:3: a shell block without a test marker (<!-- test: local-stack | skip: <why> | pending: <why> --> on the line above)',
    ])
  })

  it('refuses unknown markers, markers without a reason, and markers of the wrong kind of block', () => {
    const doc = [
      '<!-- test: run-it -->',
      '```sh',
      'ls',
      '```',
      '<!-- test: skip: -->',
      '```sh',
      'ls',
      '```',
      '<!-- test: same-as: a.yaml -->',
      '```sh',
      'ls',
      '```',
      '<!-- test: local-stack -->',
      '```yaml',
      'a: 1',
      '```',
      '<!-- test: e2e: -->',
      '```sh',
      'ls',
      '```',
      '```sh',
      'never closed',
    ].join('\n')
    expect(extractBlocks(doc, 'x.md').problems).toEqual([
      'x.md:1: unknown test marker "run-it" (local-stack, skip: <why>, pending: <why>, same-as: <path>, e2e: <test file>)',
      'x.md:5: the test marker "skip" needs a reason',
      'x.md:9: same-as is for data blocks; a shell block runs or is skipped',
      'x.md:13: local-stack is for shell blocks, not yaml',
      'x.md:17: the test marker "e2e" needs a path',
      'x.md:21: the code block is never closed',
      'x.md:21: a shell block without a test marker (<!-- test: local-stack | skip: <why> | pending: <why> --> on the line above)',
    ])
  })
})

describe('isShellBlock', () => {
  it('is true for the shell languages and for no language', () => {
    expect(
      ['sh', 'bash', 'Shell', 'console', 'zsh', ''].every((lang) => isShellBlock({ lang }))
    ).toBe(true)
    expect(isShellBlock({ lang: 'yaml' })).toBe(false)
  })
})
