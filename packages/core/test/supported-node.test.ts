import { describe, expect, it } from 'vitest';
import {
  assertSupportedNode,
  isSupportedNodeVersion,
  MINIMUM_NODE_VERSION,
  UnsupportedNodeError,
} from '../src/supported-node.js';

describe('supported-node', () => {
  it('accepts 22.13 and later, rejects older releases', () => {
    for (const v of ['22.13.0', 'v22.13.1', '22.20.0', '23.0.0', '24.9.0', '30.1.2']) {
      expect(isSupportedNodeVersion(v), v).toBe(true);
    }
    for (const v of ['22.12.9', 'v20.20.2', '18.19.0', '21.99.99', 'garbage']) {
      expect(isSupportedNodeVersion(v), v).toBe(false);
    }
  });

  it('throws one error with the code and the requirement', () => {
    expect(() => assertSupportedNode(process.versions.node)).not.toThrow();
    let thrown: unknown;
    try {
      assertSupportedNode('20.20.2');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnsupportedNodeError);
    const error = thrown as UnsupportedNodeError;
    expect(error.code).toBe('ERR_ARCLIGHT_UNSUPPORTED_NODE');
    expect(error.nodeVersion).toBe('20.20.2');
    expect(error.message).toContain(`Node.js >= ${MINIMUM_NODE_VERSION}`);
    expect(error.message).toContain('Node.js 20.20.2');
  });
});
