import { DecorumStartupError, StartupErrorCode } from '@decorum/core';
import { RedisNotificationBus, type RedisBusOptions } from '@decorum/redis';

/** Options are checked before any connection is made, so no Redis is needed here. */
describe('RedisNotificationBus options', () => {
  test.each<[Partial<RedisBusOptions>, RegExp]>([
    [{ url: 'http://127.0.0.1:6379' }, /^DECORUM_ERR_INVALID_OPTION: RedisNotificationBus: the bus URL must start with redis:\/\/ or rediss:\/\//],
    [{ replayLimit: 0 }, /^DECORUM_ERR_INVALID_OPTION: RedisNotificationBus: replayLimit must be a positive integer \(got 0\)/],
    [{ bufferLimit: 1.5 }, /^DECORUM_ERR_INVALID_OPTION: RedisNotificationBus: bufferLimit must be a positive integer \(got 1.5\)/],
    [{ retry: { minDelayMs: -5 } }, /^DECORUM_ERR_INVALID_OPTION: RedisNotificationBus: retry\.minDelayMs must be a positive integer/],
    [{ rateLimitTimeoutMs: 0 }, /^DECORUM_ERR_INVALID_OPTION: RedisNotificationBus: rateLimitTimeoutMs must be a positive integer \(got 0\)/],
  ])('%j is refused with DECORUM_ERR_INVALID_OPTION', (options, message) => {
    const attempt = () => new RedisNotificationBus(options);
    expect(attempt).toThrow(DecorumStartupError);
    expect(attempt).toThrow(expect.objectContaining({ code: StartupErrorCode.INVALID_OPTION, message: expect.stringMatching(message) }));
  });
});
