import assert from 'node:assert/strict';
import { DEFAULT_INTERNAL_CLIENT_NAME, resolveInternalFlags } from './internal-flags.js';

describe('the --internal-* flags of streamroute dataplane', () => {
  const files = {
    internalTlsCertFile: '/tls/tls.crt',
    internalTlsKeyFile: '/tls/tls.key',
    internalClientCaFile: '/tls/ca.crt',
  };

  it('leave the listener off when none is given', () => {
    assert.deepEqual(resolveInternalFlags({}), {});
  });

  it('take an address and the three files, the client name defaulting to the operator', () => {
    assert.deepEqual(resolveInternalFlags({ internalListenAddr: '0.0.0.0:9444', ...files }), {
      internal: {
        address: { host: '0.0.0.0', port: 9444 },
        certFile: '/tls/tls.crt',
        keyFile: '/tls/tls.key',
        clientCaFile: '/tls/ca.crt',
        clientName: DEFAULT_INTERNAL_CLIENT_NAME,
      },
    });
  });

  it('name the missing file, the stray flag and the bad address', () => {
    for (const [key, flag] of [
      ['internalTlsCertFile', '--internal-tls-cert-file'],
      ['internalTlsKeyFile', '--internal-tls-key-file'],
      ['internalClientCaFile', '--internal-client-ca-file'],
    ] as const) {
      const { [key]: _missing, ...rest } = files;
      assert.deepEqual(resolveInternalFlags({ internalListenAddr: '0.0.0.0:9444', ...rest }), {
        message: `--internal-listen-addr needs ${flag}`,
      });
    }
    assert.deepEqual(resolveInternalFlags({ internalClientName: 'x' }), {
      message: '--internal-client-name needs --internal-listen-addr',
    });
    const bad = resolveInternalFlags({ internalListenAddr: 'nowhere', ...files });
    assert.ok(
      'message' in bad && bad.message.startsWith('--internal-listen-addr "nowhere"'),
      JSON.stringify(bad),
    );
  });
});
