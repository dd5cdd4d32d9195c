#!/bin/sh
# Registers connectors with the Kafka Connect REST API, one config/NAME.json per connector NAME.
# PUT /connectors/NAME/config creates or updates, so running this again is harmless.
#
# In the compose stack the one-shot "register" service runs it. From the host:
#   CONNECT_URL=http://localhost:8083 CONFIG_DIR=config sh docker/register-connectors.sh
set -eu

CONNECT_URL="${CONNECT_URL:-http://connect:8083}"
CONFIG_DIR="${CONFIG_DIR:-/config}"
CONNECTORS="${CONNECTORS:-debezium-postgres-source mergesink-upsert mergesink-audit mergesink-cow mergesink-s3 mergesink-azure mergesink-iceberg mergesink-hive mergesink-paimon}"

echo "waiting for the Connect REST API at $CONNECT_URL"
curl -fsS --retry 90 --retry-delay 2 --retry-all-errors -o /dev/null "$CONNECT_URL/connectors"

for name in $CONNECTORS; do
  echo "registering $name from $CONFIG_DIR/$name.json"
  # retried: a worker that has just started may still be joining its group (409)
  curl -fsS --retry 30 --retry-delay 2 --retry-all-errors -X PUT -H 'Content-Type: application/json' \
    --data @"$CONFIG_DIR/$name.json" "$CONNECT_URL/connectors/$name/config"
  echo
done
echo "registered: $CONNECTORS"
