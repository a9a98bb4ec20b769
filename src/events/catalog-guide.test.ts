// The API guide's event catalog and the code's are one list: an event added, renamed or removed in one and not
// the other fails here (issue 27: the guide once said three emitted events were "not emitted yet").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from './catalog.ts';

const GUIDE = path.resolve(import.meta.dirname, '../../docs/api-guide.md');

/** The event names in the first column of the table under "### Event catalog". */
function guideEventNames(markdown: string): string[] {
  const start = markdown.indexOf('### Event catalog');
  if (start < 0) throw new Error('docs/api-guide.md has no "### Event catalog" section');
  const end = markdown.indexOf('\n### ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const names: string[] = [];
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const [, name] of first.matchAll(/`([a-z_]+\.[a-z_]+)`/g)) names.push(name!);
  }
  return names;
}

describe("the API guide's event catalog", () => {
  it('names every event type the code knows, once, and no other', () => {
    const names = guideEventNames(fs.readFileSync(GUIDE, 'utf8'));
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('reads the names from the first column of the section only', () => {
    const markdown = ['### Event catalog', '| Event | When |', '|---|---|', '| `a.b` / `a.c` | `x.y` happens |', '', '### Next', '| `d.e` | |'].join('\n');
    expect(guideEventNames(markdown)).toEqual(['a.b', 'a.c']);
  });
});
