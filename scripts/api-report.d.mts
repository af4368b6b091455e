/** One entry point of a published package: its folder, its built `.d.ts` and its report's file name. */
export interface ReportedEntry {
  packageFolder: string;
  types: string;
  report: string;
}
/** The report without source positions: the closing warnings keep their file, lose their line and column, and are sorted. */
export function withoutLineNumbers(report: string): string;
/** The report api-extractor makes of one entry point, without line numbers; `undefined`, with `problems` filled, when it fails. */
export function reportOf(entry: ReportedEntry, scratchFolder: string, problems: string[]): string | undefined;
