export { DocwrightClient, type ClientOptions } from './client.js';
export { ApiError, ApiTimeoutError, ApiUnreachableError } from './errors.js';
