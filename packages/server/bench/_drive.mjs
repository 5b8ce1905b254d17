import { spawn } from 'node:child_process';
import { runLifecycles } from './workloads.mjs';
const [backend, cell, n] = process.argv.slice(2);
const args = ['bench/server-child.mjs', backend];
if (backend === 'sqlite') args.push(`/tmp/tmp-debug/s-${process.pid}.sqlite`);
const child = spawn(process.execPath, [...(process.env.XARGS ? process.env.XARGS.split(' ') : []), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
let cpuWait;
const url = await new Promise((done) => child.stdout.on('data', (d) => { const s = String(d); const m = /READY (\S+)/.exec(s); if (m) done(m[1]); const c = /CPU (\d+)/.exec(s); if (c) cpuWait(Number(c[1])); }));
const cpu = () => new Promise((r) => { cpuWait = r; child.kill('SIGUSR2'); });
console.error(`PID ${child.pid}`);
const [path, c] = cell.split(':');
let s0, c0;
const r = await runLifecycles(url, { concurrency: Number(c), lifecycles: Number(n), seconds: 60, spanPath: path,
  onWindow: async (w) => { if (w === 'start') { if (process.env.WAIT) await new Promise((r) => setTimeout(r, Number(process.env.WAIT))); s0 = await cpu(); c0 = process.cpuUsage(); } else { const s1 = await cpu(); const cu = process.cpuUsage(c0); console.log(`server CPU ${((s1 - s0) / r0()).toFixed(0)} µs/lifecycle, client CPU ${((cu.user + cu.system) / r0()).toFixed(0)}`); } } });
function r0() { return Number(n); }
console.log(`${backend} ${cell}: ${r.rate.toFixed(0)}/s ${r.notes.join('; ')}`);
child.kill(); process.exit(0);
