/** Every table, for the typed database handle. Each table lives beside its feature as `<name>.table.ts`. */
export * from '../features/users/users.table';
export * from '../features/auth/auth.table';
export * from '../features/projects/projects.table';
export * from '../features/product-info/product-info.table';
export * from '../features/credentials/credentials.table';
export * from '../features/proxy-pool/proxy-pool.table';
export * from '../integrations/reddit/reddit.table';
export * from '../features/billing/billing.table';
export * from '../integrations/payments/local-payments.table';
