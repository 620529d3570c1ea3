export { DmMessagesPanel, type TDmMessagesPanelProps } from './components/dm-messages-panel';
export { dmKeys, useGenerateDm } from './hooks/use-dms';
export { generationFailureText } from './dm-texts';
export type { TDmLead } from './api/dms.api';
