import parseTemplate from 'uri-templates';

/**
 * An RFC 6570 template that can also match: `match(uri)` returns the variables when `uri` is an
 * expansion of the template (strict: only plausible, percent-encoded values), else `undefined`.
 */
export class UriTemplate {
  private readonly parsed: parseTemplate.URITemplate;
  readonly variableNames: readonly string[];
  /** Characters outside `{…}`: more literal text means a more specific template. */
  readonly specificity: number;

  constructor(readonly template: string) {
    this.parsed = parseTemplate(template);
    this.variableNames = Object.freeze([...this.parsed.varNames]);
    this.specificity = template.replace(/\{[^}]*\}/g, '').length;
  }

  match(uri: string): Record<string, string | string[]> | undefined {
    return (this.parsed.fromUri as (uri: string, options: { strict: boolean }) => Record<string, string> | undefined)(uri, { strict: true });
  }

  expand(variables: Record<string, string>): string {
    return this.parsed.fill(variables);
  }
}
