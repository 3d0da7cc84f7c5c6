export { DocwrightClient, type ClientOptions } from './client.js';
export { ApiError, ApiTimeoutError, isRetryable } from './errors.js';
