// Renders docs/api-guide.md into a self-contained HTML page for GET /docs/guide (decision 0155): run by the build, so
// the service serves a file and parses no markdown. Heading ids are GitHub's slugs, so a `#section` link that works on
// GitHub works on the served page too; the page loads nothing but its own stylesheet (the route's CSP allows no more).
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { Marked } from 'marked';

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The heading's text as GitHub slugs it: rendered inline markdown without tags or entities. */
const plainText = (html) => html.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The guide's markdown as a whole HTML document; `stylesheet` is the page's CSS URL. */
export function renderGuide(markdown, { stylesheet }) {
  const slugger = new GithubSlugger();
  let title = 'Tourbook API guide';
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const html = this.parser.parseInline(tokens);
        const text = plainText(html);
        if (depth === 1) title = text;
        const id = slugger.slug(text);
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true">#</a>${html}</h${depth}>\n`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${stylesheet}">
</head>
<body>
<main>
${body}</main>
</body>
</html>
`;
}

/** Writes dist/docs/guide.html and guide.css from docs/api-guide.md and scripts/guide.css. */
export function writeGuide(root, dist) {
  const out = path.join(dist, 'docs');
  fs.mkdirSync(out, { recursive: true });
  const markdown = fs.readFileSync(path.join(root, 'docs', 'api-guide.md'), 'utf8');
  fs.writeFileSync(path.join(out, 'guide.html'), renderGuide(markdown, { stylesheet: '/docs/guide.css' }));
  fs.copyFileSync(path.join(root, 'scripts', 'guide.css'), path.join(out, 'guide.css'));
}
