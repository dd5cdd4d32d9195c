#!/usr/bin/env bash
# MergeSink quickstart, one command: builds what the demo needs, then runs it in one JVM.
#   a Kafka broker (KRaft) and a Connect worker, PostgreSQL + Debezium when PostgreSQL's server
#   binaries are installed (else a bundled Debezium change stream), and MergeSink writing a Delta
#   table under ./quickstart-tables (or --table-dir DIR), which stays when the demo ends; with
#   --storage s3 the table goes to a local S3 server (S3Proxy) the demo starts and stops, with
#   --storage azure to a local Azure Blob service (Azurite, an npm package: needs Node.js); with
#   --format iceberg it is an Iceberg table in a JDBC catalog kept in a SQLite file beside it, with
#   --format paimon a Paimon primary-key table in a filesystem catalog whose warehouse is that directory.
# Usage: ./quickstart.sh [--table-dir DIR] [--source auto|postgres|bundled] [--storage local|s3|azure]
#                        [--format delta|iceberg|paimon] [--rounds N] [--help]
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v java >/dev/null 2>&1; then
  echo "quickstart: needs Java 17 or newer on the PATH (e.g. apt-get install openjdk-17-jdk-headless)" >&2
  exit 1
fi
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
if [ -z "$java_major" ] || [ "$java_major" -lt 17 ]; then
  echo "quickstart: needs Java 17 or newer, found: $(java -version 2>&1 | head -1)" >&2
  exit 1
fi

# --storage azure: Azurite, installed with npm into the cache directory .ci/run uses (outside the clone).
storage=""
previous=""
for arg in "$@"; do
  if [ "$previous" = "--storage" ]; then storage="$arg"; fi
  previous="$arg"
done
if [ "$storage" = "azure" ] && [ -z "${AZURITE_BLOB:-}" ] && ! command -v azurite-blob >/dev/null 2>&1; then
  azurite_dir="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mergesink-azurite-3.37.0"
  if [ ! -x "$azurite_dir/node_modules/.bin/azurite-blob" ]; then
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
      echo "quickstart: --storage azure runs Azurite, an npm package, with Node.js: install Node.js and npm" >&2
      echo "  (e.g. apt-get install nodejs npm, or https://nodejs.org) and run this again; or set AZURITE_BLOB" >&2
      echo "  to an azurite-blob command (npm install -g azurite)" >&2
      exit 1
    fi
    echo "Installing Azurite 3.37.0 into $azurite_dir (npm) ..."
    npm install --prefix "$azurite_dir" --no-audit --no-fund --loglevel=error azurite@3.37.0
  fi
  export AZURITE_BLOB="$azurite_dir/node_modules/.bin/azurite-blob"
fi

echo "Building MergeSink and the quickstart (the first build downloads Maven and the dependencies) ..."
./mvnw -q -B -ntp -DskipTests -pl quickstart -am package

exec java -jar quickstart/target/mergesink-quickstart.jar "$@"
