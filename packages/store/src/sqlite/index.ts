export type { SqliteSynchronous } from './connection.js';
export { MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.js';
export { SqliteBackend, type SqliteBackendOptions } from './sqlite-backend.js';
export { checkSqliteStartup, type SqliteStartupCheckOptions } from './startup-check.js';
