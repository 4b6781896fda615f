// Vhost: the hostnames an HTTP listener serves, optionally over TLS
// (docs/language.md, "Vhosts and endpoints").
import { list, object, optional, resourceVersionRef, rules, str } from '../dsl.js';
import { boundVersionsStatus } from './bound-versions-status.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const HOSTNAME_PATTERN =
  '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$';

export const vhostKind = defineKind({
  kind: 'Vhost',
  plural: 'vhosts',
  singular: 'vhost',
  shortNames: ['vh'],
  description: 'CREATE VHOST: hostnames matched against the Host header (lower-cased, port stripped).',
  status: boundVersionsStatus,
  spec: object(
    {
      hostnames: list(
        str('A lower-case hostname.', { pattern: HOSTNAME_PATTERN, maxLength: 253 }),
        'Hostnames.',
        {
          minItems: 1,
          maxItems: 64,
          'x-kubernetes-list-type': 'set',
        },
      ),
      tls: optional(
        rules(
          object(
            {
              mount: optional(resourceVersionRef),
              certFile: optional(str('Certificate file: {{ <resource> }}/<file>.', { minLength: 1 })),
              keyFile: optional(str('Private key file: {{ <resource> }}/<file>.', { minLength: 1 })),
              secretName: optional(
                str('A kubernetes.io/tls Secret in the same namespace.', { minLength: 1 }),
              ),
            },
            'Serve these hostnames over HTTPS.',
          ),
          [
            {
              rule: 'has(self.secretName) ? !has(self.mount) && !has(self.certFile) && !has(self.keyFile) : has(self.mount) && has(self.certFile) && has(self.keyFile)',
              message: 'tls needs either secretName, or mount with certFile and keyFile',
              holds: (self) => {
                const files = [self.mount, self.certFile, self.keyFile].filter(
                  (part) => part !== undefined,
                ).length;
                return self.secretName !== undefined ? files === 0 : files === 3;
              },
            },
          ],
        ),
      ),
    },
    'A vhost.',
  ),
  printerColumns: [
    { name: 'Hostnames', type: 'string', jsonPath: '.spec.hostnames' },
    { name: 'TLS', type: 'boolean', jsonPath: '.spec.tls', priority: 1 },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});
