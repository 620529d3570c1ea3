export { insertLeads, upsertProfiles, type NewLead } from './record-leads.repository';
export { leadsRoutes } from './leads.routes';
export { leadChildResources } from './leads.service';
export { deliverLeadWebhookJob, scanLeadWebhooksJob } from './deliver-lead-webhooks.job';
export { pruneLeadsJob } from './prune-leads.job';
