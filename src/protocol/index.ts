export * from './agent-job.js';
export * from './error.js';
