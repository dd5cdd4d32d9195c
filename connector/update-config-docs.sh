#!/usr/bin/env bash
# Regenerates the configuration reference from the connector's ConfigDef: connector/CONFIGURATION.md
# and the options table of README.md (ConfigDocsTest fails when either is out of step).
set -euo pipefail
cd "$(dirname "$0")/.."
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
./mvnw -q -B -pl connector -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test >/dev/null
java -cp "connector/target/classes:$(cat "$classpath_file")" io.mergesink.connect.config.ConfigDocs connector/CONFIGURATION.md 2>/dev/null
python3 - <<'PY'
readme = open('README.md').read()
generated = open('connector/CONFIGURATION.md').read()
start, end = '<!-- config-reference:start -->\n', '<!-- config-reference:end -->'
head, tail = readme.index(start) + len(start), readme.index(end)
open('README.md', 'w').write(readme[:head] + generated[generated.index('| Name |'):] + readme[tail:])
PY
