import type { FastifyInstance } from 'fastify';
import { AGENT_TEXTS, agentEndpoints as e } from '@threadreach/contract';
import { route } from '../../http/endpoints';
import { AppError } from '../../http/errors';
import { requireUser } from '../auth';
import { requireProject } from '../projects';
import { runAgent } from './agent-run';
import {
  completeLearning,
  getAgentLogs,
  getAgentSettings,
  getAgentStatus,
  getBehaviorLogs,
  getMessageExamples,
  getPatterns,
  logBehavior,
  restartLearning,
  saveMessageExamples,
  toggleAgentMode,
  updateAgentSettings,
} from './agent.service';

export async function agentRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const projectId = (request: Parameters<typeof requireProject>[0]) => requireProject(request).id;
  route(app, e.getSettings, async (request) => getAgentSettings(ctx, projectId(request)));
  route(app, e.updateSettings, async (request) => updateAgentSettings(ctx, projectId(request), request.body));
  route(app, e.toggleMode, async (request) => toggleAgentMode(ctx, projectId(request), request.body?.mode));
  route(app, e.execute, async (request) => {
    const outcome = await runAgent(ctx, projectId(request), 'execute');
    if (outcome.kind === 'busy') throw new AppError(409, 'agent_run_in_progress', AGENT_TEXTS.runInProgress);
    return { operation_result: outcome.result };
  });
  route(app, e.restart, async (request) => restartLearning(ctx, projectId(request)));
  route(app, e.complete, async (request) => completeLearning(ctx, projectId(request)));
  route(app, e.patterns, async (request) => getPatterns(ctx, projectId(request)));
  route(app, e.logBehavior, async (request) =>
    logBehavior(ctx, projectId(request), requireUser(request).id, [request.body]),
  );
  route(app, e.logBehaviorBatch, async (request) =>
    logBehavior(ctx, projectId(request), requireUser(request).id, request.body.actions),
  );
  route(app, e.saveMessageExamples, async (request) =>
    saveMessageExamples(ctx, projectId(request), request.body.examples),
  );
  route(app, e.listMessageExamples, async (request) =>
    getMessageExamples(ctx, projectId(request), request.query),
  );
  route(app, e.activityLogs, async (request) => getAgentLogs(ctx, projectId(request), request.query));
  route(app, e.status, async (request) => getAgentStatus(ctx, projectId(request)));
  route(app, e.behaviorLogs, async (request) => getBehaviorLogs(ctx, projectId(request), request.query));
}
