import { describe, expect, it } from 'vitest';
import { ArclightCallbackHandler } from '../src/index.js';
import {
  assertSupportedLangChainCore,
  installedLangChainCoreVersion,
} from '../src/supported-core.js';

describe('@langchain/core version check (at registration)', () => {
  it.each(['0.3.72', '0.2.36', '0.1.0'])(
    'refuses @langchain/core %s, naming the version, the range and the fix',
    (version) => {
      expect(() => assertSupportedLangChainCore(version)).toThrow(
        expect.objectContaining({
          code: 'ERR_ARCLIGHT_UNSUPPORTED_LANGCHAIN',
          message: expect.stringMatching(
            new RegExp(
              `\\^1\\.0\\.0.*${version.replaceAll('.', '\\.')}.*npm install @langchain/core@\\^1`,
              's',
            ),
          ),
        }),
      );
    },
  );

  it.each(['1.0.0', '1.4.0', '2.0.0-rc.1'])('accepts @langchain/core %s', (version) => {
    expect(() => assertSupportedLangChainCore(version)).not.toThrow();
  });

  it('reads the installed @langchain/core, and the handler registers on it', () => {
    expect(installedLangChainCoreVersion()).toMatch(/^1\./);
    expect(() => new ArclightCallbackHandler()).not.toThrow();
  });
});
