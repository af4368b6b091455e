// @decorum/redis: the notification bus for deployments of several instances.
export { RedisNotificationBus, type RedisBusOptions, type RedisBusStats } from './redis-notification-bus.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
