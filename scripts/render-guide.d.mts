// Types for render-guide.mjs (plain JavaScript: the build runs it without a TypeScript loader).
export function renderGuide(markdown: string, options: { stylesheet: string }): string;
export function writeGuide(root: string, dist: string): void;
