export { AgentActivityStep, type TAgentActivityStepProps } from './components/agent-activity-step';
export { AgentModePanel, type TAgentModePanelProps } from './components/agent-mode-panel';
export { AgentOverlay, type TAgentOverlayProps } from './components/agent-overlay';
export {
  AGENT_REFRESH_MS,
  agentKeys,
  isAgentRunning,
  useAgentSettings,
  useAgentStatus,
  useLogBehavior,
  useToggleAgentMode,
} from './hooks/use-agent';
