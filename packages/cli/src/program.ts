import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerExportCommand } from './commands/export.js';
import { registerGatewayCommand } from './commands/gateway.js';
import { registerStoreCommand } from './commands/store.js';

function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    return (JSON.parse(text) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The `arclight` (alias `agl`) command line; one module per sub-command under `commands/`. */
export function createProgram(): Command {
  const program = new Command('arclight')
    .description('Arclight: Agent Lightning for TypeScript agents')
    .version(packageVersion(), '-v, --version');
  registerStoreCommand(program);
  registerExportCommand(program);
  registerDoctorCommand(program);
  registerGatewayCommand(program);
  return program;
}
