export { checkProjectReplies } from './check-replies.service';
export { pollInboxJob, scheduleInboxPollsJob } from './poll-inbox.job';
export { pollInbox, type InboxPollReport } from './poll-inbox.service';
export { isRefusal } from './refusal';
export { dmReplies, type DmReplyRow } from './replies.table';
