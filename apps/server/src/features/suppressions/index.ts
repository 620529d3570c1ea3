export { suppressionsRoutes } from './suppressions.routes';
export { alreadyAnswered, isRecipientBlocked, onTheList, type RecipientBlock } from './suppressions.service';
export {
  containsPattern,
  suppressContacted,
  suppressRecipient,
  suppressedAmong,
  usernameKey,
  type NewSuppression,
} from './suppressions.repository';
export {
  suppressions,
  SUPPRESSION_REASONS,
  type SuppressionReason,
  type SuppressionRow,
} from './suppressions.table';
