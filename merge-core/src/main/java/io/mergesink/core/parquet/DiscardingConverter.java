package io.mergesink.core.parquet;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/** Decodes a field nobody asked for and drops its values. */
final class DiscardingConverter {
  private DiscardingConverter() {}

  static Converter of(Type type) {
    if (type.isPrimitive()) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {}

        @Override
        public void addBoolean(boolean value) {}

        @Override
        public void addDouble(double value) {}

        @Override
        public void addFloat(float value) {}

        @Override
        public void addInt(int value) {}

        @Override
        public void addLong(long value) {}
      };
    }
    GroupType group = type.asGroupType();
    Converter[] children = new Converter[group.getFieldCount()];
    for (int i = 0; i < children.length; i++) {
      children[i] = of(group.getType(i));
    }
    return new GroupConverter() {
      @Override
      public Converter getConverter(int fieldIndex) {
        return children[fieldIndex];
      }

      @Override
      public void start() {}

      @Override
      public void end() {}
    };
  }
}
