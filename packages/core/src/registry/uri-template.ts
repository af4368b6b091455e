import parseTemplate from 'uri-templates';

type Variables = Record<string, string | string[]>;

/** Characters an IRI may hold raw and a URI must percent-encode (RFC 3987 §3.1). */
const NON_ASCII = /[^\x00-\x7f]+/g;
const HAS_NON_ASCII = /[^\x00-\x7f]/;
/** `{+var}` and `{#var}`: reserved expansion, whose values the library hands back still encoded. */
const RESERVED_EXPRESSION = /\{[+#]([^}]*)\}/g;

/**
 * An RFC 6570 template that can also match: `match(uri)` returns the variables when `uri` is an
 * expansion of the template (strict: only plausible values), else `undefined`.
 *
 * URIs are taken as hosts send them: an IRI with raw non-ASCII characters (`notes://café`) is
 * matched as its URI form (`notes://caf%C3%A9`), and every variable comes back decoded, whatever
 * the operator, so a handler sees `café` either way. A URI whose escapes do not decode (`%zz`, a
 * lone `%E9`, a lone surrogate) matches no template.
 */
export class UriTemplate {
  private readonly parsed: parseTemplate.URITemplate;
  readonly variableNames: readonly string[];
  /** Characters outside `{…}`: more literal text means a more specific template. */
  readonly specificity: number;
  /** Variables of `{+…}`/`{#…}` expressions, which the library does not decode. */
  private readonly reserved: readonly string[];

  constructor(readonly template: string) {
    this.parsed = parseTemplate(template);
    this.variableNames = Object.freeze([...this.parsed.varNames]);
    this.specificity = template.replace(/\{[^}]*\}/g, '').length;
    this.reserved = [...template.matchAll(RESERVED_EXPRESSION)].flatMap(([, list]) => list!.split(',').map((spec) => spec.replace(/(\*|:\d+)$/, '')));
  }

  match(uri: string): Variables | undefined {
    try {
      const ascii = HAS_NON_ASCII.test(uri) ? uri.replace(NON_ASCII, encodeURIComponent) : uri;
      const variables = (this.parsed.fromUri as (uri: string, options: { strict: boolean }) => Variables | undefined)(ascii, { strict: true });
      if (variables) for (const name of this.reserved) if (name in variables) variables[name] = decodeValue(variables[name]!);
      return variables;
    } catch (error) {
      // encodeURIComponent/decodeURIComponent refuse malformed text: such a URI names no resource.
      if (error instanceof URIError) return undefined;
      throw error;
    }
  }

  expand(variables: Record<string, string>): string {
    return this.parsed.fill(variables);
  }
}

function decodeValue(value: string | string[]): string | string[] {
  return typeof value === 'string' ? decodeURIComponent(value) : value.map((item) => decodeURIComponent(item));
}
