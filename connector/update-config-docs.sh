#!/usr/bin/env bash
# Regenerates the configuration reference from the engine's option definitions (io.mergesink.ingest.config): connector/CONFIGURATION.md
# and the options table of docs/configuration.md (ConfigDocsTest fails when either is out of step).
# The README's short table of common options is written by hand; ConfigDocsTest checks its names and defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
./mvnw -q -B -pl connector -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >/dev/null
java -cp "connector/target/classes:$(cat "$classpath_file")" io.mergesink.connect.config.ConfigDocs connector/CONFIGURATION.md 2>/dev/null
python3 - <<'PY'
page = open('docs/configuration.md').read()
generated = open('connector/CONFIGURATION.md').read()
start, end = '<!-- config-reference:start -->\n', '<!-- config-reference:end -->'
head, tail = page.index(start) + len(start), page.index(end)
open('docs/configuration.md', 'w').write(page[:head] + generated[generated.index('| Name |'):] + page[tail:])
PY
