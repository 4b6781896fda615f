// SyslogClient: a syslog address that listeners bind and emitters send to (spec §2.8).
import { int, object, oneOf, optional, resourceVersionRef, rules, str } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const SYSLOG_PROTOCOLS = ['udp', 'tcp', 'tls'] as const;
export const SYSLOG_FRAMINGS = ['octet-counting', 'non-transparent'] as const;
export const DEFAULT_MAX_MESSAGE_SIZE = 131072;
export const MAX_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

/** host:port with a DNS name, an IPv4 address or a bracketed IPv6 address; the port is checked separately. */
export const ADDR_PATTERN = '^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):[0-9]{1,5}$';

const ADDR_REGEX = new RegExp(ADDR_PATTERN);

const tlsFile = (what: string) =>
  optional(
    str(`${what}. A path, usually {{ <mounted resource> }}/<file>.`, { minLength: 1, maxLength: 4096 }),
  );

export const syslogConfig = rules(
  object(
    {
      protocol: oneOf(SYSLOG_PROTOCOLS, 'Transport: udp, tcp or tls.'),
      addr: str('host:port. Listeners bind it; emitters send to it.', { maxLength: 300 }),
      maxMessageSize: optional(
        int(`Largest ingested message in bytes (default ${DEFAULT_MAX_MESSAGE_SIZE}).`, {
          minimum: 1,
          maximum: MAX_MAX_MESSAGE_SIZE,
        }),
      ),
      framing: optional(oneOf(SYSLOG_FRAMINGS, 'TCP emitter framing (default octet-counting).')),
      tlsCertFile: tlsFile('TLS listener: server certificate. Emitter: optional client certificate'),
      tlsKeyFile: tlsFile('Private key paired with tlsCertFile'),
      tlsCaFile: tlsFile('Listener: CA for client certificates (mutual TLS). Emitter: server trust root'),
    },
    'CONFIG { … } of a syslog client.',
  ),
  [
    {
      rule: `self.addr.matches('${ADDR_PATTERN.replaceAll('\\', '\\\\')}') && int(self.addr.substring(self.addr.lastIndexOf(':') + 1)) <= 65535`,
      message: 'addr must be host:port with a port from 0 to 65535 (IPv6 in brackets: [::1]:514)',
      code: 'SR2031',
      holds: (self) =>
        ADDR_REGEX.test(self.addr) && Number(self.addr.slice(self.addr.lastIndexOf(':') + 1)) <= 65535,
      fieldPath: '.addr',
    },
    {
      rule: "self.protocol != 'udp' || !has(self.framing)",
      message: 'framing is not allowed with protocol udp',
      code: 'SR2032',
      holds: (self) => self.protocol !== 'udp' || self.framing === undefined,
      fieldPath: '.framing',
    },
    {
      rule: "self.protocol != 'tls' || !has(self.framing) || self.framing == 'octet-counting'",
      message: 'framing non-transparent is not allowed with protocol tls (RFC 5425 is octet-counted)',
      code: 'SR2032',
      holds: (self) => self.protocol !== 'tls' || self.framing !== 'non-transparent',
      fieldPath: '.framing',
    },
    {
      rule: "self.protocol == 'tls' || !has(self.tlsCertFile) && !has(self.tlsKeyFile) && !has(self.tlsCaFile)",
      message: 'tlsCertFile, tlsKeyFile and tlsCaFile are only allowed with protocol tls',
      code: 'SR2035',
      holds: (self) =>
        self.protocol === 'tls' ||
        (self.tlsCertFile === undefined && self.tlsKeyFile === undefined && self.tlsCaFile === undefined),
    },
    {
      rule: 'has(self.tlsCertFile) == has(self.tlsKeyFile)',
      message: 'tlsCertFile and tlsKeyFile must be given together',
      code: 'SR2034',
      holds: (self) => (self.tlsCertFile === undefined) === (self.tlsKeyFile === undefined),
      fieldPath: '.tlsKeyFile',
    },
  ],
);

export const syslogClientKind = defineKind({
  kind: 'SyslogClient',
  plural: 'syslogclients',
  singular: 'syslogclient',
  shortNames: ['slc'],
  description: 'CREATE CLIENT … TYPE SYSLOG: an address syslog listeners bind and syslog emitters send to.',
  spec: object(
    {
      mount: optional(resourceVersionRef),
      config: syslogConfig,
    },
    'A syslog client.',
  ),
  printerColumns: [
    { name: 'Protocol', type: 'string', jsonPath: '.spec.config.protocol' },
    { name: 'Addr', type: 'string', jsonPath: '.spec.config.addr' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});
