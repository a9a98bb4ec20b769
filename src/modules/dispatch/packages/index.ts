// The packages/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
// The repository is exported whole, as a namespace, so that its callers keep reading `xRepo.find…(…)`.
export * as packagesRepository from './repository.ts';
export type { PackageHistoryRow, PackageRow } from './repository.ts';
export { newShortcode } from './shortcodes.ts';
export { toPackageView } from './views.ts';
