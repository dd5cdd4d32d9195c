package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.testing.FixtureTables;
import io.mergesink.core.testing.KernelTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Our deletion vectors in a real table: a copy of the Spark fixture {@code types-table} gets a
 * commit that replaces the DV of the file holding ids 2 (row 0) and 3 (row 1, deleted by Spark)
 * with one of ours deleting both rows, in a DV file or inline; Delta Kernel's scan must then return only id 1.
 */
class DeletionVectorKernelScanTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FILE_WITH_IDS_2_AND_3 = "part-00001-f1a7b86c-6f57-4ebf-aa0c-fd5f2d69dcd8-c000.snappy.parquet";
  private static final DeletionVectorDescriptor SPARK_DV = new DeletionVectorDescriptor("u", "}=2Y=}lJ<kK.RR0EL(bn", 1, 34, 1);

  @TempDir
  Path table;

  @Test
  void kernelAppliesADeletionVectorFileWrittenByTheStore() throws IOException {
    copyFixture();
    DeletionVectorDescriptor ours = new DeletionVectorStore(HadoopStorage.withDefaults())
        .write(table.toString(), List.of(Roaring64NavigableMap.bitmapOf(0, 1)), 0).descriptors().get(0);

    commitNewDeletionVector(ours);

    assertThat(KernelTables.latestVersion(table.toString())).isEqualTo(3);
    assertThat(KernelTables.readRows(table.toString())).extracting(row -> row.get(0)).containsExactly(1);
  }

  /**
   * Delta Kernel 4.0.0 could not scan a table with an inline DV (its {@code isInline()} compared the
   * storage type with {@code ==}); from 4.2.0 on it can, and it must read ours like a DV file.
   */
  @Test
  void kernelAppliesAnInlineDeletionVector() throws IOException {
    copyFixture();
    DeletionVectorDescriptor inline = DeletionVectorStore.inline(Roaring64NavigableMap.bitmapOf(0, 1));

    commitNewDeletionVector(inline);

    assertThat(KernelTables.readRows(table.toString())).extracting(row -> row.get(0)).containsExactly(1);
  }

  /** Commits version 3: remove the file with Spark's DV, add it back with {@code dv}. */
  private void commitNewDeletionVector(DeletionVectorDescriptor dv) throws IOException {
    Path log = table.resolve("_delta_log");
    ObjectNode add = null;
    for (String line : Files.readAllLines(log.resolve("00000000000000000002.json"))) {
      ObjectNode action = (ObjectNode) JSON.readTree(line);
      if (action.has("add") && action.get("add").get("path").asText().equals(FILE_WITH_IDS_2_AND_3)) {
        add = (ObjectNode) action.get("add");
      }
    }
    assertThat(add).as("add of %s in version 2", FILE_WITH_IDS_2_AND_3).isNotNull();

    ObjectNode remove = JSON.createObjectNode();
    remove.put("path", FILE_WITH_IDS_2_AND_3);
    remove.put("deletionTimestamp", System.currentTimeMillis());
    remove.put("dataChange", true);
    remove.put("extendedFileMetadata", true);
    remove.set("partitionValues", JSON.createObjectNode());
    remove.put("size", add.get("size").asLong());
    remove.set("deletionVector", json(SPARK_DV));
    add.set("deletionVector", json(dv));

    String commit = JSON.writeValueAsString(JSON.createObjectNode().set("remove", remove)) + "\n"
        + JSON.writeValueAsString(JSON.createObjectNode().set("add", add)) + "\n";
    Files.writeString(log.resolve("00000000000000000003.json"), commit);
  }

  private static ObjectNode json(DeletionVectorDescriptor dv) {
    ObjectNode node = JSON.createObjectNode();
    node.put("storageType", dv.storageType());
    node.put("pathOrInlineDv", dv.pathOrInlineDv());
    if (dv.offset() != null) {
      node.put("offset", dv.offset());
    }
    node.put("sizeInBytes", dv.sizeInBytes());
    node.put("cardinality", dv.cardinality());
    return node;
  }

  private void copyFixture() throws IOException {
    Path source = FixtureTables.path("types-table");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path target = table.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }
}
