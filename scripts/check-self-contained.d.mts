/** Where `text`, the content of the repository file `file` (relative to the root), points outside the repository. */
export function escapesIn(file: string, text: string): string[];
/** Every place a repository file points outside the repository, as `file:line: why`. */
export function findEscapes(): string[];
