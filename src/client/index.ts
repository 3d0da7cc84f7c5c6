export { DocwrightClient, type ClientOptions } from './client.js';
export { ApiError, ApiTimeoutError, ApiUnreachableError, isRetryable } from './errors.js';
