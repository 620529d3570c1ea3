export { DmMessagesPanel, type TDmMessagesPanelProps } from './components/dm-messages-panel';
export { useGenerateDm } from './hooks/use-dms';
export { generationFailureText } from './dm-texts';
export type { TDmLead } from './api/dms.api';
