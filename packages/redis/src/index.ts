/**
 * @decorum/redis — what several instances of a server share through one Redis: the notification
 * bus (change events and list changes), the rate-limit store and the task store.
 *
 * @module \@decorum/redis
 */
export { RedisNotificationBus, type RedisBusOptions, type RedisBusStats } from './redis-notification-bus.js';
export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export { RedisTaskStore, type RedisTaskStoreOptions } from './redis-task-store.js';
