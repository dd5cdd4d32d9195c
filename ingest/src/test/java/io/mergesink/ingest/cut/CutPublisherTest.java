package io.mergesink.ingest.cut;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CutPublisherTest {
  @Test
  void theCutTableIsNoneOfTheTablesACutNamesAlsoWhereTheCatalogListsItInItsNamespace() {
    assertThat(CutPublisher.isCutTable("mergesink_cuts")).isTrue();
    assertThat(CutPublisher.isCutTable("default/mergesink_cuts")).as("Iceberg, table names of two levels").isTrue();
    assertThat(CutPublisher.isCutTable("public/accounts")).isFalse();
    assertThat(CutPublisher.isCutTable("public/old_mergesink_cuts")).isFalse();
  }
}
