import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  freePort,
  PythonProcess,
  pythonEnv,
  runPython,
  runPythonJson,
  SKIP_PYTHON,
  summaryOf,
} from '../../src/python/index.js';

describe('python helpers without a Python process', () => {
  it('freePort gives a port a server can listen on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    expect(server.address()).toMatchObject({ port });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('pythonEnv sets the defaults and lets extra override them', () => {
    expect(pythonEnv()).toMatchObject({
      LITELLM_LOCAL_MODEL_COST_MAP: 'True',
      PYTHONUNBUFFERED: '1',
      AGL_LOG_LEVEL: 'WARNING',
    });
    expect(pythonEnv({ AGL_LOG_LEVEL: 'ERROR', X: '1' })).toMatchObject({
      AGL_LOG_LEVEL: 'ERROR',
      X: '1',
    });
  });

  it('summaryOf reads the marker line and refuses failed or silent scripts', () => {
    const ok = { code: 0, stdout: 'noise\nSUMMARY {"a":1}\n', stderr: '', result: '' };
    expect(summaryOf(ok)).toEqual({ a: 1 });
    expect(summaryOf({ ...ok, stdout: 'RESULT [2]' }, { marker: 'RESULT' })).toEqual([2]);
    expect(() => summaryOf({ ...ok, code: 1 })).toThrow(/exit 1, with SUMMARY line/);
    expect(summaryOf({ ...ok, code: 1 }, { anyExitCode: true })).toEqual({ a: 1 });
    expect(() => summaryOf({ code: 0, stdout: 'nothing', stderr: 'trace', result: '' })).toThrow(
      /no SUMMARY line[\s\S]*trace/,
    );
  });
});

describe.skipIf(SKIP_PYTHON)('python helpers with the venv interpreter', () => {
  it('runPython passes the environment and stdin, and reports both streams', async () => {
    const result = await runPython(
      [
        '-c',
        'import os, sys; print(os.environ["AGL_LOG_LEVEL"], sys.stdin.read()); print("err", file=sys.stderr)',
      ],
      { env: { AGL_LOG_LEVEL: 'ERROR' }, input: 'hello' },
    );
    expect(result).toEqual({ code: 0, stdout: 'ERROR hello\n', stderr: 'err\n', result: '' });
  });

  it('runPythonJson answers JSON for JSON and rejects with stderr on failure', async () => {
    // The answer travels on fd 3, so noise a library prints on stdout does not corrupt it.
    const echo =
      'import json, os, sys; print("noise {"); ' +
      'json.dump({"got": json.load(sys.stdin)}, os.fdopen(int(os.environ["ARCLIGHT_RESULT_FD"]), "w"))';
    expect(await runPythonJson(['-c', echo], [1, 'a'])).toEqual({ got: [1, 'a'] });
    await expect(runPythonJson(['-c', 'import sys; sys.exit("broken input")'], {})).rejects.toThrow(
      /exited with 1:\nbroken input/,
    );
  });

  it('PythonProcess waits for output and HTTP, and stops a server', async () => {
    const port = await freePort();
    const server = PythonProcess.start([
      '-c',
      [
        'import http.server, sys',
        'class H(http.server.BaseHTTPRequestHandler):',
        '    def do_GET(self):',
        '        self.send_response(200); self.end_headers()',
        '    def log_message(self, *a): pass',
        `s = http.server.HTTPServer(("127.0.0.1", ${port}), H)`,
        'print("READY", s.server_address[1], flush=True)',
        's.serve_forever()',
      ].join('\n'),
    ]);
    try {
      const [, printed] = await server.waitForOutput(/READY (\d+)/);
      expect(Number(printed)).toBe(port);
      await server.waitForHttp(`http://127.0.0.1:${port}/health`);
      expect(server.running).toBe(true);
    } finally {
      await server.stop();
    }
    const result = await server.waitForExit();
    expect(server.running).toBe(false);
    expect(result.code).not.toBe(0);
  });

  it('PythonProcess reports a script that exits before printing what was awaited', async () => {
    const child = PythonProcess.start(['-c', 'print("bye"); raise SystemExit(3)']);
    await expect(child.waitForOutput(/READY/)).rejects.toThrow(/exited before printing[\s\S]*bye/);
    expect(await child.waitForExit()).toMatchObject({ code: 3, stdout: 'bye\n' });
  });
});
