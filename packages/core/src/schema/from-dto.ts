// Moved to dto/to-json-schema.ts; kept for mrtr/elicitation-schema.ts until the legacy-era branch lands (issue #16).
export { dtoToJsonSchema } from '../dto/to-json-schema.js';
