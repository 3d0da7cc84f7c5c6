export { DocwrightClient } from './client.js';
export { ApiError, ApiTimeoutError, ApiUnreachableError } from './errors.js';
export { pollJob } from './wait-for-job.js';
