package io.mergesink.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Logical to physical schemas (PROTOCOL.md, "Column Mapping"). */
class ColumnMappingTest {
  @Test
  void modeFromTheTableProperty() {
    assertThat(ColumnMapping.mode(Map.of())).isEqualTo(ColumnMapping.Mode.NONE);
    assertThat(ColumnMapping.mode(Map.of(ColumnMapping.MODE_PROPERTY, "name"))).isEqualTo(ColumnMapping.Mode.NAME);
    assertThat(ColumnMapping.mode(Map.of(ColumnMapping.MODE_PROPERTY, "ID"))).isEqualTo(ColumnMapping.Mode.ID);
    assertThatThrownBy(() -> ColumnMapping.mode(Map.of(ColumnMapping.MODE_PROPERTY, "names")))
        .hasMessage("table property delta.columnMapping.mode is 'names', expected none, name or id");
  }

  @Test
  void physicalSchemaRenamesNestedFieldsAndKeepsIds() {
    StructType logical = StructType.of(
        field("id", PrimitiveType.LONG, "col-1", 1),
        field("address", StructType.of(field("city", PrimitiveType.STRING, "col-3", 3)), "col-2", 2),
        field("tags", new ArrayType(StructType.of(field("t", PrimitiveType.STRING, "col-5", 5)), true), "col-4", 4));

    StructType physical = ColumnMapping.physicalSchema(logical, ColumnMapping.Mode.NAME);

    assertThat(physical.toString()).isEqualTo("struct<col-1:long,col-2:struct<col-3:string>,col-4:array<struct<col-5:string>>>");
    assertThat(ColumnMapping.id(physical.field(1))).hasValue(2);
    assertThat(ColumnMapping.physicalSchema(logical, ColumnMapping.Mode.NONE)).isSameAs(logical);
    assertThatThrownBy(() -> ColumnMapping.physicalSchema(StructType.of(new StructField("x", PrimitiveType.LONG, true)),
        ColumnMapping.Mode.ID)).hasMessageContaining("column 'x' has no delta.columnMapping.id");
    assertThatThrownBy(() -> ColumnMapping.physicalSchema(StructType.of(new StructField("x", PrimitiveType.LONG, true,
        Map.of(ColumnMapping.ID_KEY, 1))), ColumnMapping.Mode.NAME))
        .hasMessage("column 'x' has no delta.columnMapping.physicalName in its metadata, which column mapping mode name needs");
  }

  private static StructField field(String name, DataType type, String physical, int id) {
    return new StructField(name, type, true, Map.of(ColumnMapping.PHYSICAL_NAME_KEY, physical, ColumnMapping.ID_KEY, id));
  }
}
