/**
 * What each legacy revision's schema knows. A legacy session speaks the revision it negotiated,
 * so anything that revision's `schema.ts` does not define is left out of (or rewritten in) what
 * it is sent, and client capabilities it cannot declare are not read from `initialize`.
 * Each entry names the first revision that has the feature (checked against
 * modelcontextprotocol/modelcontextprotocol `schema/<revision>/schema.ts`).
 */
import { isAtLeast } from './versions.js';

const SINCE = {
  /** `AudioContent` in tool results and prompt messages. */
  audioContent: '2025-03-26',
  /** `Tool.annotations` (`ToolAnnotations`). */
  toolAnnotations: '2025-03-26',
  /** `ProgressNotification.params.message`. */
  progressMessage: '2025-03-26',
  /** `ServerCapabilities.completions` (2024-11-05 serves `completion/complete` without one). */
  completionsCapability: '2025-03-26',
  /** `Tool.outputSchema` and `CallToolResult.structuredContent`. */
  structuredOutput: '2025-06-18',
  /** `title` on tools, resources, templates, prompts, prompt arguments and `Implementation`. */
  titles: '2025-06-18',
  /** `_meta` on tools, resources, templates, prompts, content blocks and resource contents. */
  itemMeta: '2025-06-18',
  /** `ResourceLink` content blocks. */
  resourceLinks: '2025-06-18',
  /** `Annotations.lastModified`. */
  lastModified: '2025-06-18',
  /** `ClientCapabilities.elicitation` and `elicitation/create`. */
  elicitation: '2025-06-18',
  /** `icons` on tools, resources, templates, prompts, resource links and `Implementation`. */
  icons: '2025-11-25',
  /** `Implementation.description` and `websiteUrl`. */
  implementationDetails: '2025-11-25',
  /** Elicitation `mode` (form and url) and the `elicitation.form` / `elicitation.url` capabilities. */
  elicitationModes: '2025-11-25',
  /** Form fields' defaults (beyond booleans'), titled options (`oneOf`) and multi-select arrays. */
  elicitationSchemaExtensions: '2025-11-25',
  /** `sampling.tools` and `sampling.context`; before, any sampling client took `includeContext`. */
  samplingSubCapabilities: '2025-11-25',
  /** Core tasks: `capabilities.tasks`, `execution.taskSupport`, the `task` param of `tools/call`, `tasks/*`. */
  tasks: '2025-11-25',
} as const;

/** A feature some legacy revisions lack. */
export type RevisionFeature = keyof typeof SINCE;

/** True when `version` (a legacy revision) has `feature`. */
export function revisionHas(version: string, feature: RevisionFeature): boolean {
  return isAtLeast(version, SINCE[feature]);
}
