/**
 * The path, from the repository root, of a fixture server module several suites serve with
 * mcp-serve (which the suites run with the root as working directory): `fixture('cluster-server.ts')`.
 */
export function fixture(file: string): string {
  return `test/support/fixtures/${file}`;
}
