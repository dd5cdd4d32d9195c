/**
 * The engine's options and the enumerated choices users make (write mode, key mode, schema
 * evolution, lookup scope, delete images), with the names they write in configuration; every front
 * end maps its own configuration onto them.
 */
package io.mergesink.ingest.options;
