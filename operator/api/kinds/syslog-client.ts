// SyslogClient: a syslog address that listeners bind and emitters send to
// (docs/language.md, "Syslog clients").
import { int, object, oneOf, optional, resourceVersionRef, rules, str } from '../dsl.js';
import { boundVersionsStatus } from './bound-versions-status.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const SYSLOG_PROTOCOLS = ['udp', 'tcp', 'tls'] as const;
export const SYSLOG_FRAMINGS = ['octet-counting', 'non-transparent'] as const;
export const DEFAULT_MAX_MESSAGE_SIZE = 131072;
export const MAX_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

/**
 * host:port with a DNS name, an IPv4 address or a bracketed IPv6 address, and a port without leading
 * zeros from 1; the upper bound (65535) is checked beside the pattern.
 */
export const ADDR_PATTERN =
  '^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?):[1-9][0-9]{0,4}$';

const ADDR_REGEX = new RegExp(ADDR_PATTERN);

const tlsFile = (what: string) =>
  optional(
    str(`${what}. A path, usually {{ <mounted resource> }}/<file>.`, { minLength: 1, maxLength: 4096 }),
  );

type SyslogConfig = {
  protocol: string;
  tlsCertFile?: string | undefined;
  tlsKeyFile?: string | undefined;
  tlsCaFile?: string | undefined;
};

type TlsProperty = 'tlsCertFile' | 'tlsKeyFile' | 'tlsCaFile';

/**
 * Each TLS property and its CONFIG key as statements write it (docs/language.md, "Syslog clients");
 * messages name the key.
 */
const TLS_KEYS: Readonly<Record<TlsProperty, string>> = {
  tlsCertFile: 'tls_cert_file',
  tlsKeyFile: 'tls_key_file',
  tlsCaFile: 'tls_ca_file',
};

/** SR2035, one rule per key so that each names its key and points at it. */
const tlsOnlyRule = (property: TlsProperty) => ({
  rule: `self.protocol == 'tls' || !has(self.${property})`,
  message: `${TLS_KEYS[property]} is only allowed with protocol tls`,
  code: 'SR2035' as const,
  holds: (self: SyslogConfig) => self.protocol === 'tls' || self[property] === undefined,
  fieldPath: `.${property}`,
});

/**
 * SR2034: the missing half of a certificate and key with protocol tls, reported at the missing key (on
 * udp and tcp the present half is already SR2035).
 */
const pairRule = (present: TlsProperty, missing: TlsProperty) => ({
  rule: `self.protocol != 'tls' || !has(self.${present}) || has(self.${missing})`,
  message: `${TLS_KEYS[missing]} is required with ${TLS_KEYS[present]}`,
  code: 'SR2034' as const,
  holds: (self: SyslogConfig) =>
    self.protocol !== 'tls' || self[present] === undefined || self[missing] !== undefined,
  fieldPath: `.${missing}`,
});

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
      message: 'addr must be host:port with a port from 1 to 65535 (IPv6 in brackets: [::1]:514)',
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
    tlsOnlyRule('tlsCertFile'),
    tlsOnlyRule('tlsKeyFile'),
    tlsOnlyRule('tlsCaFile'),
    pairRule('tlsCertFile', 'tlsKeyFile'),
    pairRule('tlsKeyFile', 'tlsCertFile'),
  ],
);

export const syslogClientKind = defineKind({
  kind: 'SyslogClient',
  plural: 'syslogclients',
  singular: 'syslogclient',
  shortNames: ['slc'],
  description: 'CREATE CLIENT … TYPE SYSLOG: an address syslog listeners bind and syslog emitters send to.',
  status: boundVersionsStatus,
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
