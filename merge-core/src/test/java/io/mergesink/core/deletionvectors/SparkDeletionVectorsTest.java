package io.mergesink.core.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.testing.FixtureTables;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Golden bytes: the deletion vectors Spark 4.0 / Delta 4.0 wrote into the fixture tables, read
 * with {@link DeletionVectorStore} and re-serialized with {@link RoaringBitmapArrayCodec}.
 */
class SparkDeletionVectorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DeletionVectorStore store = new DeletionVectorStore(HadoopStorage.withDefaults());

  @ParameterizedTest
  @ValueSource(strings = {"dv-table", "types-table"})
  void everyDeletionVectorInTheLogReadsAndReserializesToSparksBytes(String fixture) throws IOException {
    Path table = FixtureTables.path(fixture);
    Map<String, DeletionVectorDescriptor> descriptors = descriptorsInLog(table);
    assertThat(descriptors).isNotEmpty();

    for (DeletionVectorDescriptor dv : descriptors.values()) {
      Roaring64NavigableMap bitmap = store.read(table.toString(), dv);
      assertThat(bitmap.getLongCardinality()).as("cardinality of %s", dv).isEqualTo(dv.cardinality());

      byte[] file = Files.readAllBytes(Path.of(DeletionVectorStore.absolutePath(table.toString(), dv)));
      assertThat(file[0]).as("format version of the file of %s", dv).isEqualTo(DeletionVectorStore.FILE_FORMAT_VERSION);
      ByteBuffer record = ByteBuffer.wrap(file, dv.offset(), 4 + dv.sizeInBytes() + 4);
      assertThat(record.getInt()).as("big-endian size field of %s", dv).isEqualTo(dv.sizeInBytes());
      byte[] sparkBitmap = new byte[dv.sizeInBytes()];
      record.get(sparkBitmap);
      int sparkChecksum = record.getInt();

      byte[] ours = RoaringBitmapArrayCodec.serialize(bitmap);
      assertThat(ours).as("bitmap bytes of %s", dv).containsExactly(sparkBitmap);
      assertThat(crc32(ours)).as("CRC-32 of %s", dv).isEqualTo(sparkChecksum);
    }
  }

  @Test
  void dvTableDeletionVectorsHoldTheDeletedRowPositions() throws IOException {
    String table = FixtureTables.path("dv-table").toString();
    // part-00000-fce2a8ab holds ids 0..249 at row positions 0..249.
    // v3 DELETE WHERE id % 10 = 3, then v4 UPDATE WHERE id % 10 = 7 moved those rows out too.
    DeletionVectorDescriptor afterDelete = new DeletionVectorDescriptor("u", "7iYuu^0m$=F$5>pe)!*%", 1, 82, 25);
    DeletionVectorDescriptor afterUpdate = new DeletionVectorDescriptor("u", "NGgq84JOm4UJT[vQ-60:", 141, 132, 50);

    assertThat(store.read(table, afterDelete).toArray())
        .containsExactly(LongStream.range(0, 250).filter(id -> id % 10 == 3).toArray());
    assertThat(store.read(table, afterUpdate).toArray())
        .containsExactly(LongStream.range(0, 250).filter(id -> id % 10 == 3 || id % 10 == 7).toArray());
  }

  @Test
  void typesTableDeletionVectorDeletesTheSecondRowOfItsFile() throws IOException {
    String table = FixtureTables.path("types-table").toString();
    DeletionVectorDescriptor dv = new DeletionVectorDescriptor("u", "}=2Y=}lJ<kK.RR0EL(bn", 1, 34, 1);

    assertThat(DeletionVectorStore.absolutePath(table, dv))
        .endsWith("/deletion_vector_fb543d0a-f9b3-4f17-916a-be9a7e35719c.bin");
    assertThat(store.read(table, dv).toArray()).containsExactly(1L);
  }

  @Test
  void sparkDvFileNamesAreTheZ85UuidsOfTheDescriptors() throws IOException {
    Path table = FixtureTables.path("dv-table");
    List<String> referenced = descriptorsInLog(table).values().stream()
        .map(dv -> Path.of(DeletionVectorStore.absolutePath(table.toString(), dv)).getFileName().toString())
        .distinct().sorted().toList();
    List<String> onDisk;
    try (Stream<Path> files = Files.list(table)) {
      onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("deletion_vector_")).sorted().toList();
    }
    assertThat(referenced).isEqualTo(onDisk).hasSize(3);
  }

  /** The distinct deletion vectors of all add and remove actions in the JSON commits, by unique id. */
  private static Map<String, DeletionVectorDescriptor> descriptorsInLog(Path table) throws IOException {
    Map<String, DeletionVectorDescriptor> byId = new LinkedHashMap<>();
    List<Path> commits;
    try (Stream<Path> files = Files.list(table.resolve("_delta_log"))) {
      commits = files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
    }
    for (Path commit : commits) {
      for (String line : Files.readAllLines(commit)) {
        JsonNode action = JSON.readTree(line);
        for (String kind : List.of("add", "remove")) {
          JsonNode dv = action.path(kind).path("deletionVector");
          if (dv.isObject()) {
            DeletionVectorDescriptor descriptor = new DeletionVectorDescriptor(dv.get("storageType").asText(),
                dv.get("pathOrInlineDv").asText(), dv.has("offset") ? dv.get("offset").asInt() : null,
                dv.get("sizeInBytes").asInt(), dv.get("cardinality").asLong());
            byId.put(descriptor.uniqueId(), descriptor);
          }
        }
      }
    }
    return byId;
  }

  private static int crc32(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return (int) crc.getValue();
  }
}
