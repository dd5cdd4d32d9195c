package io.mergesink.core.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.mergesink.core.data.Row;
import io.mergesink.core.storage.HadoopStorage;
import io.mergesink.core.storage.Storage;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads files of our writer with parquet-hadoop's example {@code Group} reader, which shares no
 * code with {@link DataFileReader}, and checks the footer's physical and logical types.
 */
class IndependentReaderTest {
  private final Storage storage = HadoopStorage.withDefaults();

  @TempDir
  Path dir;

  private String path;

  @BeforeEach
  void writeAllTypes() throws IOException {
    path = dir.resolve("all.parquet").toString();
    try (DataFileWriter writer = DataFileWriter.open(storage, path, AllTypes.SCHEMA, ParquetWriteOptions.defaults())) {
      for (Row row : AllTypes.rows()) {
        writer.write(row);
      }
      writer.finish();
    }
  }

  @Test
  void groupReaderSeesTheValuesWeWrote() throws IOException {
    List<Group> groups = new ArrayList<>();
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(path))
        .withConf(new Configuration()).build()) {
      for (Group group = reader.read(); group != null; group = reader.read()) {
        groups.add(group);
      }
    }
    assertThat(groups).hasSize(AllTypes.rows().size());
    Group typical = groups.get(0);
    assertThat(typical.getLong("id", 0)).isEqualTo(1L);
    assertThat(typical.getBoolean("flag", 0)).isTrue();
    assertThat(typical.getInteger("b", 0)).isEqualTo(7);
    assertThat(typical.getInteger("s", 0)).isEqualTo(300);
    assertThat(typical.getFloat("f", 0)).isEqualTo(1.5f);
    assertThat(typical.getString("str", 0)).isEqualTo("héllo, \"world\" 🎉");
    assertThat(typical.getBinary("bin", 0).getBytes()).containsExactly(0, 0xFF, 0x10);
    assertThat(typical.getInteger("day", 0)).isEqualTo(AllTypes.days("2026-02-28"));
    assertThat(typical.getLong("ts", 0)).isEqualTo(AllTypes.micros("2026-03-01T12:34:56.789012Z"));
    // Decimals: unscaled values, INT32 / INT64 / 16-byte big-endian two's complement.
    assertThat(typical.getInteger("dec5", 0)).isEqualTo(12345);
    assertThat(typical.getLong("dec18", 0)).isEqualTo(-123456789012345678L);
    byte[] dec38 = typical.getBinary("dec38", 0).getBytes();
    assertThat(dec38).hasSize(16);
    assertThat(new BigDecimal(new BigInteger(dec38), 10)).isEqualTo(new BigDecimal("1234567890123456789012345678.0123456789"));
    byte[] negative = groups.get(2).getBinary("dec38", 0).getBytes();
    assertThat(new BigDecimal(new BigInteger(negative), 10))
        .isEqualTo(new BigDecimal("-9999999999999999999999999999.9999999999"));
    // 3-level list: a, null, c.
    Group list = typical.getGroup("tags", 0);
    assertThat(list.getFieldRepetitionCount("list")).isEqualTo(3);
    assertThat(list.getGroup("list", 0).getString("element", 0)).isEqualTo("a");
    assertThat(list.getGroup("list", 1).getFieldRepetitionCount("element")).isZero();
    assertThat(list.getGroup("list", 2).getString("element", 0)).isEqualTo("c");
    // Map entries in order, k2's value null.
    Group map = typical.getGroup("attrs", 0);
    assertThat(map.getFieldRepetitionCount("key_value")).isEqualTo(2);
    assertThat(map.getGroup("key_value", 0).getString("key", 0)).isEqualTo("k1");
    assertThat(map.getGroup("key_value", 0).getLong("value", 0)).isEqualTo(1L);
    assertThat(map.getGroup("key_value", 1).getFieldRepetitionCount("value")).isZero();
    // Nested struct.
    Group nested = typical.getGroup("nested", 0);
    assertThat(nested.getGroup("p", 0).getString("label", 0)).isEqualTo("why");
    assertThat(nested.getLong("n", 0)).isEqualTo(70L);
    // The all-null row has only its id.
    assertThat(groups.get(1).getFieldRepetitionCount("str")).isZero();
    assertThat(groups.get(1).getFieldRepetitionCount("nested")).isZero();
  }

  @Test
  void footerCarriesDeltaCompatibleLogicalTypes() throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(storage.parquetInput(path))) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      assertThat(schema).isEqualTo(ParquetSchemas.toParquet(AllTypes.SCHEMA));
      assertThat(schema.getType("id").getRepetition()).isEqualTo(Repetition.REQUIRED);
      assertThat(schema.getType("ts").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT64);
      assertThat(schema.getType("ts").getLogicalTypeAnnotation())
          .isEqualTo(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS));
      assertThat(schema.getType("ts_ntz").getLogicalTypeAnnotation())
          .isEqualTo(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS));
      assertThat(schema.getType("b").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.intType(8, true));
      assertThat(schema.getType("s").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.intType(16, true));
      assertThat(schema.getType("day").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.dateType());
      assertThat(schema.getType("str").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.stringType());
      assertThat(schema.getType("bin").getLogicalTypeAnnotation()).isNull();
      assertThat(schema.getType("dec5").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT32);
      assertThat(schema.getType("dec18").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT64);
      assertThat(schema.getType("dec38").asPrimitiveType().getPrimitiveTypeName())
          .isEqualTo(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
      assertThat(schema.getType("dec38").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.decimalType(10, 38));
      assertThat(schema.getType("tags").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.listType());
      assertThat(schema.getType("attrs").getLogicalTypeAnnotation()).isEqualTo(LogicalTypeAnnotation.mapType());
      assertThat(reader.getRowGroups().get(0).getColumns().get(0).getCodec()).isEqualTo(CompressionCodecName.ZSTD);
    }
  }
}
