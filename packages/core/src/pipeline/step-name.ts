/** The name of a middleware or guard in errors: its function name, else its place in the chain. */
export function stepName(step: (...args: never[]) => unknown, index: number, what: string): string {
  return step.name ? step.name : `${what} #${index + 1}`;
}
