#!/usr/bin/env bash
# Installs the real syslog peers of the interop tests (test/interop/syslog-codec.interop.test.ts) on Debian
# bookworm, as root: util-linux `logger` (bsdutils) and rsyslog as packages, and syslog-ng-core unpacked
# into a prefix, because Debian makes syslog-ng and rsyslog conflict (both provide system-log-daemon) and
# the tests need both. The unpacked syslog-ng runs from the prefix with LD_LIBRARY_PATH and --module-path;
# its library dependencies are ordinary packages that conflict with nothing, so apt installs them.
#
#   bash test/support/install-syslog-peers.sh            # prefix /opt/streamroute/syslog-ng
#   SYSLOGNG_PREFIX=/some/dir bash test/support/install-syslog-peers.sh
#
# Idempotent: it installs only what is missing and unpacks syslog-ng only when the prefix lacks it.
set -euo pipefail
prefix="${SYSLOGNG_PREFIX:-/opt/streamroute/syslog-ng}"
export DEBIAN_FRONTEND=noninteractive

# syslog-ng-core's Depends (apt-cache depends syslog-ng-core), less the init-script helpers it does not
# need when run in the foreground.
syslogng_libs=(libc6 libcap2 libglib2.0-0 libivykis0 libjson-c5 libnet1 libpcre3 libssl3 libsystemd0 libwrap0)
# rsyslog's TLS stream drivers (lmnsd_ossl, lmnsd_gtls) for the TLS wire tests (test/interop/syslog-*.ts).
packages=(bsdutils rsyslog rsyslog-openssl rsyslog-gnutls openssl "${syslogng_libs[@]}")

updated=0
update_once() {
  if ((updated == 0)); then
    apt-get update -qq
    updated=1
  fi
}

missing=()
for package in "${packages[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
if ((${#missing[@]})); then
  update_once
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ ! -x "$prefix/usr/sbin/syslog-ng" ]; then
  update_once
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # apt-get download fetches as the _apt user when that user may write to the directory.
  chown _apt "$work" 2>/dev/null || chmod 0777 "$work"
  (cd "$work" && apt-get download -qq syslog-ng-core)
  mkdir -p "$prefix"
  dpkg -x "$work"/syslog-ng-core_*.deb "$prefix"
  chmod -R a+rX "$prefix"
fi

echo "syslog peers: $(command -v logger) ($(logger --version)), $(command -v rsyslogd || echo /usr/sbin/rsyslogd)," \
  "$prefix/usr/sbin/syslog-ng"
