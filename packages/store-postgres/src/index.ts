export { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.js';
export { PostgresLightningStore, type PostgresStoreOptions } from './postgres-store.js';
