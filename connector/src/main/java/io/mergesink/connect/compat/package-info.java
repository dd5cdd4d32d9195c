/**
 * Which Kafka Connect workers the plugin runs on: the marker of classes that need a newer worker
 * than the oldest supported one (docs/design.md, "Kafka Connect versions").
 */
package io.mergesink.connect.compat;
