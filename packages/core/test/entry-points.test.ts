import * as core from '@decorum/core';
import * as transport from '@decorum/core/transport';

/** What a transport drives the engine with: in `@decorum/core/transport`, not beside `@Tool`. */
const TRANSPORT_VALUES = [
  'McpEngine',
  'Cancellation',
  'Pipeline',
  'readEnvelope',
  'parseJson',
  'readableId',
  'isNotificationShaped',
  'encodeMessage',
  'isErrorResponse',
  'RawJson',
  'errorResponse',
  'toJsonRpcError',
  'legacyErrorResponse',
  'shutdownErrors',
  'LegacySession',
  'isModernShaped',
  'isLegacyOpening',
  'classifyInbound',
  'preloadValidators',
  'createDefaultLogger',
];

describe('the entry points of @decorum/core', () => {
  test("the main entry has the author's names", () => {
    for (const name of [
      'McpServer',
      'Tool',
      'Resource',
      'Prompt',
      'Complete',
      'Use',
      'Guard',
      'Field',
      'createServer',
      'serverOf',
      'isServerTarget',
      'UserError',
      'ToolError',
      'DecorumStartupError',
      'DecorumUsageError',
    ]) {
      expect(core).toHaveProperty(name);
    }
  });

  test('the transport SPI is in @decorum/core/transport only', () => {
    expect(TRANSPORT_VALUES.filter((name) => !(name in transport))).toEqual([]);
    expect(TRANSPORT_VALUES.filter((name) => name in core)).toEqual([]);
  });

  test('a renamed predicate keeps its old name as an alias of the new one', () => {
    expect(core.isDecorumServer).toBe(core.isServerTarget);
  });
});
