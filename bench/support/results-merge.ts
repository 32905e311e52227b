/**
 * A bench run of some sections (`BENCH_ONLY=...`) rewrites those sections and keeps the others:
 * in `results.json` the keys of the sections it did not run stay as the previous file had them,
 * and in `RESULTS.md` the sections it did not measure are copied from the previous file, each
 * with the line that says when it was measured (added from the previous file's header when an
 * older file has none). A section is the same section when its title is, number aside, so a
 * renumbered section replaces its old self.
 */
import { renderSection, type Section } from './results-report';

/** `results.json` of this run over the previous one: this run's keys win, `sectionRuns` adds up. */
export function mergeResults(
  previous: Record<string, unknown> | undefined,
  current: Record<string, unknown>,
): Record<string, unknown> {
  if (!previous) return current;
  return {
    ...previous,
    ...current,
    sectionRuns: {
      ...(previous.sectionRuns as Record<string, unknown> | undefined),
      ...(current.sectionRuns as Record<string, unknown> | undefined),
    },
  };
}

/** `8. Transparency log` → `transparency log`. */
const bareTitle = (title: string) =>
  title
    .replace(/^\d+[a-z]?\.\s*/, '')
    .trim()
    .toLowerCase();

const COMPARISON = 'compared with the previous run';

interface MarkdownSection {
  title: string;
  text: string;
}

/** The `## ` sections of a RESULTS.md, each with its measured line. */
function previousSections(markdown: string): MarkdownSection[] {
  // Files written before sections carried their own line: the run of the whole file.
  const header = /Written by `npm run bench` \(([^,]+), commit ([^)]+)\)/.exec(markdown);
  const loadAtStart = /at the start (\[[^\]]*\])/.exec(markdown)?.[1];
  const machine = /^Local embedded stack \([^)]*\), (.+)\.$/m.exec(markdown)?.[1];
  const fallback = header
    ? `_Measured ${header[1]}, commit ${header[2]} (${machine ?? 'machine unknown'}), in a run of every section; load average (1, 5, 15 min) at its start ${loadAtStart ?? 'unknown'}._`
    : '_Measured in an earlier run (when unknown)._';
  const sections: MarkdownSection[] = [];
  let current: { title: string; lines: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const lines = [...current.lines];
    while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
    if (!lines.some((line) => line.startsWith('_Measured '))) lines.splice(1, 0, '', fallback);
    sections.push({ title: current.title, text: `${lines.join('\n')}\n` });
  };
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line.startsWith('## ')) {
      close();
      current = { title: line.slice(3).trim(), lines: [line] };
    } else current?.lines.push(line);
  }
  close();
  return sections;
}

/**
 * The sections of this run, and those of the previous file that this run did not measure, in
 * the order of their numbers (1, 1a, 2, ..., 10, 11).
 */
export function sectionsMarkdown(sections: Section[], previousMarkdown: string | undefined): string {
  const fresh = sections.map((section) => ({ title: section.title, text: renderSection(section) }));
  const measured = new Set(fresh.map((section) => bareTitle(section.title)));
  const kept = previousMarkdown
    ? previousSections(previousMarkdown).filter(
        (section) => bareTitle(section.title) !== COMPARISON && !measured.has(bareTitle(section.title)),
      )
    : [];
  return [...fresh, ...kept]
    .sort((a, b) => a.title.localeCompare(b.title, 'en', { numeric: true }))
    .map((section) => section.text)
    .join('\n');
}
