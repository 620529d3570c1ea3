export {
  agentKeys,
  isAgentRunning,
  useAgentSettings,
  useAgentStatus,
  useToggleAgentMode,
} from './hooks/use-agent';
