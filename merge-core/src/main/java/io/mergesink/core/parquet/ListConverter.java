package io.mergesink.core.parquet;

import io.mergesink.core.types.ArrayType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/** Assembles a {@link List} from a LIST-annotated group, 3-level or legacy 2-level. */
final class ListConverter extends GroupConverter {
  private final ValueSink sink;
  private final Converter repeated;
  private List<Object> elements;

  ListConverter(ArrayType read, GroupType file, ColumnMatch match, ValueSink sink, String column) {
    this.sink = sink;
    Type repeatedType = file.getType(0);
    String elementColumn = column + "." + ParquetSchemas.LIST_ELEMENT_NAME;
    if (ParquetProjection.isElement(repeatedType, file.getName())) {
      this.repeated = Converters.of(read.elementType(), repeatedType, match, value -> elements.add(value), elementColumn);
    } else {
      this.repeated = new ElementConverter(read, repeatedType.asGroupType(), match, elementColumn);
    }
  }

  @Override
  public Converter getConverter(int fieldIndex) {
    return repeated;
  }

  @Override
  public void start() {
    elements = new ArrayList<>();
  }

  @Override
  public void end() {
    sink.set(Collections.unmodifiableList(elements));
  }

  /** The repeated group of a 3-level list: one element (possibly null) per occurrence. */
  private final class ElementConverter extends GroupConverter {
    private final Converter element;
    private Object value;

    ElementConverter(ArrayType read, GroupType repeatedGroup, ColumnMatch match, String column) {
      this.element = Converters.of(read.elementType(), repeatedGroup.getType(0), match, v -> value = v, column);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return element;
    }

    @Override
    public void start() {
      value = null;
    }

    @Override
    public void end() {
      elements.add(value);
    }
  }
}
