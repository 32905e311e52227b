/**
 * Relative links and anchors of Markdown files, checked as GitHub resolves them: a link's path
 * against the linking file's folder, an anchor against the heading slugs of the target file.
 * Links to other sites (`https:`, `mailto:`) are not followed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The text with fenced code blocks and inline code blanked out, so that no link is read from code. */
const withoutCode = (markdown: string): string => withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '');

/** The text without its fenced code blocks (indented fences, as in a list, included). */
const withoutCodeBlocks = (markdown: string): string =>
  markdown.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, '');

/**
 * GitHub's anchor of a heading: lower case, punctuation dropped but `-` and `_`, each space a
 * `-`; a heading that repeats gets `-1`, `-2`, ... in order.
 */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutCodeBlocks(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const heading = (match[1] as string)
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading keeps its text
      .replace(/<[^>]+>/g, '');
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The targets of the inline links, images and link definitions of a Markdown text. */
function linkTargetsOf(markdown: string): string[] {
  const text = withoutCode(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)];
  const definitions = [...text.matchAll(/^[ \t]*\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+"[^"]*")?[ \t]*$/gm)];
  return [...inline, ...definitions].map((match) => match[1] as string);
}

/** Every link of `files` (paths relative to `root`) that names no existing file or heading, as `file: target`. */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const slugsOf = new Map<string, Set<string>>();
  const slugsOfFile = (path: string): Set<string> => {
    let slugs = slugsOf.get(path);
    if (!slugs) {
      slugs = headingSlugs(readFileSync(path, 'utf8'));
      slugsOf.set(path, slugs);
    }
    return slugs;
  };
  const broken: string[] = [];
  for (const file of files) {
    const source = join(root, file);
    for (const target of linkTargetsOf(readFileSync(source, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart = '', anchor] = target.split('#', 2);
      const path = pathPart === '' ? source : join(dirname(source), decodeURIComponent(pathPart));
      if (!path.startsWith(root) || !existsSync(path)) {
        broken.push(`${file}: ${target} (no file ${relative(root, path)})`);
        continue;
      }
      if (
        anchor !== undefined &&
        path.endsWith('.md') &&
        !slugsOfFile(path).has(decodeURIComponent(anchor))
      ) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(root, path)})`);
      }
    }
  }
  return broken;
}
