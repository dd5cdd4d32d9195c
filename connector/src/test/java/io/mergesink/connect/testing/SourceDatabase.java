package io.mergesink.connect.testing;

/** The PostgreSQL database the deploy files' Debezium source connector reads ({@code config/debezium-postgres-source.json}). */
public final class SourceDatabase {
  public static final String NAME = "inventory";

  private SourceDatabase() {}
}
