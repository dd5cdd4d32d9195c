package io.mergesink.connect.json;

/**
 * Thrown by the fast path when a record is not in the shape Kafka's JsonConverter writes (a value
 * of another JSON type than its schema's, a required value missing, an odd envelope): the record
 * is then converted by Kafka's converter, which decides what such input means. A shared instance
 * without a stack trace: it is control flow, never shown to users.
 */
final class NotCanonical extends Exception {
  private static final long serialVersionUID = 1L;
  static final NotCanonical INSTANCE = new NotCanonical();

  private NotCanonical() {
    super("not in the shape JsonConverter writes", null, false, false);
  }
}
