import { DecorumStartupError, StartupErrorCode } from '@decorum/core';
import { RedisNotificationBus, type RedisBusOptions } from '@decorum/redis';

/** Options are checked before any connection is made, so no Redis is needed here. */
describe('RedisNotificationBus options', () => {
  test.each<[Partial<RedisBusOptions>, StartupErrorCode, RegExp]>([
    [
      { url: 'http://127.0.0.1:6379' },
      StartupErrorCode.INVALID_ADDRESS,
      /^DECORUM_ERR_INVALID_ADDRESS: RedisNotificationBus: the bus URL must start with redis:\/\/ or rediss:\/\//,
    ],
    [
      { replayLimit: 0 },
      StartupErrorCode.INVALID_NUMBER,
      /^DECORUM_ERR_INVALID_NUMBER: RedisNotificationBus: replayLimit must be a positive integer \(got 0\)/,
    ],
    [
      { bufferLimit: 1.5 },
      StartupErrorCode.INVALID_NUMBER,
      /^DECORUM_ERR_INVALID_NUMBER: RedisNotificationBus: bufferLimit must be a positive integer \(got 1.5\)/,
    ],
    [
      { retry: { minDelayMs: -5 } },
      StartupErrorCode.INVALID_NUMBER,
      /^DECORUM_ERR_INVALID_NUMBER: RedisNotificationBus: retry\.minDelayMs must be a positive integer/,
    ],
    [
      { rateLimitTimeoutMs: 0 },
      StartupErrorCode.INVALID_NUMBER,
      /^DECORUM_ERR_INVALID_NUMBER: RedisNotificationBus: rateLimitTimeoutMs must be a positive integer \(got 0\)/,
    ],
  ])('%j is refused with %s', (options, code, message) => {
    const attempt = () => new RedisNotificationBus(options);
    expect(attempt).toThrow(DecorumStartupError);
    expect(attempt).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message) }));
  });
});
