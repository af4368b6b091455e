/**
 * Text a server lists ends up in front of people (approval prompts, terminals, model tool lists),
 * so a server must not steer a terminal with it (ESC sequences, CR overwriting a line) nor hide
 * characters in it (bidi overrides, zero-width). Names are identifiers: one holding a control or
 * format character is refused with its item. Titles and descriptions are prose: controls and
 * bidi marks in them are shown escaped (`\u001b`), line breaks and tabs kept.
 */

// Names: C0/C1 controls (ESC, CR, NUL, …) and every format character (bidi overrides, zero-width).
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}]/u;
// Prose: controls but line breaks and tabs, and the bidi marks that reorder what is shown (emoji joiners stay).
const UNSAFE_IN_TEXT = /(?![\n\t])[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const HAS_UNSAFE_TEXT = new RegExp(UNSAFE_IN_TEXT.source, 'u');

/** The list methods whose items are checked, and the key of their items. */
export const LISTED_ITEMS: ReadonlyMap<string, string> = new Map([
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resourceTemplates'],
]);

/** `text` with every control character but `\n` and `\t`, and every bidi mark, written as a `\uXXXX` escape. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

type Listed = { name?: unknown; title?: unknown; description?: unknown; annotations?: { title?: unknown } };

const needsEscape = (value: unknown): value is string => typeof value === 'string' && HAS_UNSAFE_TEXT.test(value);

/**
 * The items of one list page as they may be shown: those whose name holds a control or format
 * character are left out (`onDropped` gets the name, quoted and escaped), the others' titles and
 * descriptions escaped. Runs once per page fetched, before the page is cached.
 */
export function safeListed<T>(items: T[], onDropped: (quotedName: string) => void): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) {
      kept.push(item);
      continue;
    }
    const listed = item as Listed;
    if (typeof listed.name === 'string' && UNSAFE_IN_NAME.test(listed.name)) {
      onDropped(escapeControls(JSON.stringify(listed.name)));
      continue;
    }
    const annotationTitle = listed.annotations?.title;
    if (!needsEscape(listed.title) && !needsEscape(listed.description) && !needsEscape(annotationTitle)) {
      kept.push(item);
      continue;
    }
    const copy: Listed = { ...listed };
    if (needsEscape(listed.title)) copy.title = escapeControls(listed.title);
    if (needsEscape(listed.description)) copy.description = escapeControls(listed.description);
    if (needsEscape(annotationTitle)) copy.annotations = { ...listed.annotations, title: escapeControls(annotationTitle) };
    kept.push(copy as T);
  }
  return kept;
}
