#!/usr/bin/env bash
# Fetches Apache Kafka (broker, storage tool, console and performance tools) with every
# transitive dependency from Maven, as listed in this directory's pom.xml, into a
# per-version cache directory:
#   ${STREAMROUTE_KAFKA_CACHE:-$HOME/.cache/streamroute}/kafka-<version>_<hash>/libs/*.jar
# A fetch is skipped when that directory is complete, so only the first run on a
# machine pays for the download. Mirrors test/kube/build.sh.
#
# Besides the jars it writes two class-data-sharing archives (server.jsa, tools.jsa):
# the JVM maps already-parsed classes from them instead of reading ~90 jars, which
# halves the start of every console tool a test runs (see test/kafka/README.md).
#
#   bash test/kafka/build.sh              fetch if needed, print the directory
#   bash test/kafka/build.sh --print-dir  only print the directory (no fetch);
#                                         test/fixtures/kafka-broker.ts uses it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${STREAMROUTE_KAFKA_CACHE:-${HOME:-/root}/.cache/streamroute}"

kafka_version="$(sed -n 's#.*<kafka.version>\([^<]*\)</kafka.version>.*#\1#p' "$here/pom.xml" | head -n1)"
if [[ -z "$kafka_version" ]]; then
  echo "build.sh: cannot read <kafka.version> from $here/pom.xml" >&2
  exit 1
fi
# The flags the archives are made with (a JVM checks few of them against its own: the
# fixture's quick and throughput profiles, test/fixtures/kafka-jvm.ts, both use them).
jvm_flags="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=warning:stderr"

# The key hashes pom.xml and the archive flags, so a change to what gets fetched lands
# in a fresh directory instead of reusing stale jars.
recipe_hash="$(printf '%s\n' "$jvm_flags" | cat "$here/pom.xml" - | sha256sum | cut -c1-10)"
out="$cache_root/kafka-${kafka_version}_${recipe_hash}"

if [[ "${1:-}" == "--print-dir" ]]; then
  echo "$out"
  exit 0
fi

jars_complete() { [[ -f "$1/complete" && -f "$1/libs/kafka_2.13-$kafka_version.jar" ]]; }
archived() { [[ -f "$out/server.jsa" && -f "$out/tools.jsa" ]]; }

if jars_complete "$out" && archived; then
  echo "Kafka $kafka_version jars (cached): $out"
  exit 0
fi

command -v mvn >/dev/null || { echo "build.sh: 'mvn' (Maven) is required" >&2; exit 1; }
command -v java >/dev/null || { echo "build.sh: 'java' (Java >= 17) is required" >&2; exit 1; }
start=$SECONDS

if ! jars_complete "$out"; then
  mkdir -p "$cache_root"
  tmp="$(mktemp -d "$cache_root/.build.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  echo "fetching Apache Kafka $kafka_version and its dependencies from Maven..."
  # Maven runs in a copy of the pom so nothing (target/) is ever written into the repo.
  cp "$here/pom.xml" "$tmp/pom.xml"
  # Maven 3.8 prints colour resets even when quiet and told not to colour; strip them.
  (cd "$tmp" && mvn --batch-mode --quiet -Dstyle.color=never \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/libs") 2>&1 |
    sed 's/\x1b\[[0-9;]*m//g'
  rm "$tmp/pom.xml"
  echo "$kafka_version" >"$tmp/complete"
  # Publish atomically: a concurrent or interrupted fetch never leaves a half-written
  # directory behind that later runs would treat as complete.
  chmod 755 "$tmp"
  if ! mv -T "$tmp" "$out" 2>/dev/null; then
    # Another run published the same key first; keep its jars.
    jars_complete "$out" || { echo "build.sh: could not publish $out" >&2; exit 1; }
    rm -rf "$tmp"
  fi
  trap - EXIT
fi

# Class-data-sharing archives, made after publishing because an archive records the
# absolute class path it was made with. One comes from formatting a throwaway storage
# directory (the broker's classes), one from a console producer that opens and closes
# a producer without reaching any broker (the client's classes); neither needs a
# running broker. A JVM that cannot use an archive (another Java build) ignores it.
work="$(mktemp -d "$out/.archive.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat >"$work/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:9
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://127.0.0.1:8,CONTROLLER://127.0.0.1:9
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$work/data
PROPS
archive() { # <name> <main class> <args…>: run once, dump the loaded classes to <name>.jsa
  local name=$1; shift
  # shellcheck disable=SC2086 # jvm_flags is a list of flags
  java $jvm_flags -XX:ArchiveClassesAtExit="$work/$name.jsa" -cp "$out/libs/*" "$@" \
    </dev/null >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
  mv "$work/$name.jsa" "$out/$name.jsa"
}
echo "writing class-data-sharing archives..."
archive server kafka.tools.StorageTool format -t AAAAAAAAAAAAAAAAAAAAAQ -c "$work/server.properties"
archive tools org.apache.kafka.tools.ConsoleProducer --bootstrap-server 127.0.0.1:9 --topic archive
rm -rf "$work"
trap - EXIT
echo "done in $((SECONDS - start))s"
echo "Kafka $kafka_version jars: $out"
