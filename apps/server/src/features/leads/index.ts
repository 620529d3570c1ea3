export { insertLeads, upsertProfiles, type NewLead } from './record-leads.repository';
