export { mayTrigger, isBot, parseAllowedBots, type AllowedBots } from './bots.js';
export { findThreadJob, type PullRequestBody, type ThreadJob } from './find-thread-job.js';
export { findJobMarker, jobMarker, neutralizeMarkers } from './job-marker.js';
export {
  DEFAULT_COMMAND,
  isSyncInstruction,
  parseSlashCommand,
  syncOutsidePullRequestReply,
} from './slash-command.js';
export { renderStatusComment, type StatusLinks, type StatusView } from './status-comment.js';
export { StatusCommentWriter } from './status-comment-writer.js';
export { finishedJobView, latestReply } from './job-status-view.js';
export { trustBotsAndPermitted } from './trust.js';
export {
  GAPS_ISSUE_TITLE,
  gapsIssueMarker,
  isGapsIssueBody,
  mayBeFillInstruction,
  parseGapsInstruction,
  renderGapsIssue,
  type GapsInstruction,
} from './gaps-issue.js';
