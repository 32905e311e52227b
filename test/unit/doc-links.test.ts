/**
 * Every relative link and anchor of the README and of `docs/` resolves: a file that exists, a
 * heading that exists (GitHub's anchors), so that moving or renaming a doc or a heading cannot
 * leave a dead link behind.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { brokenLinks, headingSlugs } from '../support/markdown-links';

const root = resolve(__dirname, '../..');

/** The Markdown files under `folder`, relative to the repository root. */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [relative(root, path)] : [];
  });
}

describe('links in the README and docs/', () => {
  it('resolve to a file and, with an anchor, to a heading of it', () => {
    // Prepare
    const files = ['README.md', ...markdownFiles(join(root, 'docs'))];

    // Act
    const broken = brokenLinks(root, files);

    // Assess
    expect(broken).toEqual([]);
  });
});

describe('the link check', () => {
  it("slugs headings as GitHub does: lower case, punctuation dropped but '-' and '_', repeats numbered", () => {
    // Act
    const slugs = headingSlugs(
      '# Events out: EventBridge and webhooks\n## `npm start`, then *curl*\n## 1. A_b\n## 1. A_b\n```\n# not a heading\n```\n',
    );

    // Assess
    expect([...slugs]).toEqual([
      'events-out-eventbridge-and-webhooks',
      'npm-start-then-curl',
      '1-a_b',
      '1-a_b-1',
    ]);
  });

  it('reports a missing file, a missing heading and a missing anchor in the same file, and nothing in code', () => {
    // Prepare
    const folder = mkdtempSync(join(tmpdir(), 'doc-links-'));
    try {
      writeFileSync(join(folder, 'b.md'), '# B\n## Here it is\n');
      writeFileSync(
        join(folder, 'a.md'),
        [
          '# A',
          '[fine](b.md#here-it-is) [fine too](#a) [site](https://example.com/x.md)',
          '[gone](missing.md) [no heading](b.md#not-here) [no anchor](#nowhere)',
          '`[in code](missing.md)`',
          '```',
          '[in a block](missing.md)',
          '```',
        ].join('\n'),
      );

      // Act
      const broken = brokenLinks(folder, ['a.md']);

      // Assess
      expect(broken).toEqual([
        'a.md: missing.md (no file missing.md)',
        'a.md: b.md#not-here (no heading #not-here in b.md)',
        'a.md: #nowhere (no heading #nowhere in a.md)',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
