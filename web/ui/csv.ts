// Writing CSV in the console: the one cell rule and file shape of src/shared/csv.ts (decision 1581), shared rather
// than copied — that file is domain-free and imports nothing, so the page bundle takes it as it is. Every download
// the console makes (today the import's "Download failed rows") writes through toCsv.
export { csvCell, toCsv } from '../../src/shared/csv.ts';
