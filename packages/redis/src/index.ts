/**
 * @decorum/redis — what several instances of a server share through one Redis: the notification
 * bus (change events and list changes) and the rate-limit store.
 *
 * @module \@decorum/redis
 */
export { RedisNotificationBus, type RedisBusOptions, type RedisBusStats } from './redis-notification-bus.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
