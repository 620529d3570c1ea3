export { SendAllDmsButton, type TSendAllDmsButtonProps } from './components/send-all-dms-button';
export { SendingStatusPanel, type TSendingStatusPanelProps } from './components/sending-status-panel';
export { useSendDm, useSendAllDms, useSendingStatus, SENDING_STATUS_REFRESH_MS } from './hooks/use-sending';
export { sendingStateLabel } from './sending-texts';
