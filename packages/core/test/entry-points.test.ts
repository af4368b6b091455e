import * as core from '@decorum/core';
import * as transport from '@decorum/core/transport';

/** What a transport drives the engine with: in `@decorum/core/transport`, not beside `@Tool`. */
const TRANSPORT_VALUES = [
  'McpEngine',
  'Cancellation',
  'readEnvelope',
  'parseJson',
  'readableId',
  'isNotificationShaped',
  'encodeMessage',
  'isErrorResponse',
  'errorResponse',
  'legacyErrorResponse',
  'shutdownErrors',
  'isLegacyOpening',
  'classifyInbound',
  'preloadValidators',
  'createDefaultLogger',
  'LineSplitter',
  'readMcpParamHeaders',
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

  test('the names renamed before the first release are gone, not aliased', () => {
    expect('isDecorumServer' in core).toBe(false);
  });

  test('what only the core itself or its tests call is in neither entry point', () => {
    const internal = [
      'compileSchema',
      'toRequestedSchema',
      'isSafePattern',
      'scopesGuard',
      'VALIDATION_META_KEY',
      'STATE_KEYS_ENV',
      'Pipeline',
      'toJsonRpcError',
    ];
    expect(internal.filter((name) => name in core || name in transport)).toEqual([]);
  });

  test('classes that only the core makes are exported as types (no value to construct)', () => {
    expect(['LiveRegistry', 'PipelineCall'].filter((name) => name in core)).toEqual([]);
    expect(['LegacySession'].filter((name) => name in transport)).toEqual([]);
  });
});
