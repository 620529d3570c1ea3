export * from './common.schema';
export * from './roles';
export * from './auth.schema';
export * from './projects.schema';
export * from './product-info.schema';
export * from './system.schema';
export * from './credentials.schema';
export * from './billing.schema';
