package io.mergesink.core.log;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Defensive, order-keeping immutable copies that, unlike {@code Map.copyOf}, allow null values. */
final class Copies {
  private Copies() {}

  static <K, V> Map<K, V> map(Map<K, V> map) {
    return map == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  static <K, V> Map<K, V> mapOrEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map(map);
  }

  static <T> Set<T> set(Set<T> set) {
    return set == null ? null : Collections.unmodifiableSet(new LinkedHashSet<>(set));
  }

  static <T> List<T> listOrEmpty(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }
}
