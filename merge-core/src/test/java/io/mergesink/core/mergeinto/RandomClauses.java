package io.mergesink.core.mergeinto;

import io.mergesink.core.types.StructType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random clause lists over the model test's table ({@code id, a INT, b STRING, c BIGINT}), with a description for messages. */
final class RandomClauses {
  private RandomClauses() {}

  record Generated(MergeSpec spec, String description) {}

  static Generated generate(Random random, StructType sourceSchema) {
    MergeSpec.Builder builder = MergeSpec.builder(sourceSchema, List.of("id"));
    List<String> described = new ArrayList<>();
    SourceDuplicates duplicates = random.nextInt(3) == 0 ? SourceDuplicates.LAST_WINS : SourceDuplicates.REJECT;
    builder.sourceDuplicates(duplicates);
    described.add(duplicates.name());
    if (random.nextInt(5) == 0) {
      // the blind upsert: what the connector does today
      builder.whenMatched().thenUpdateAll().whenNotMatched().thenInsertAll();
      described.add("WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
      return new Generated(builder.build(), String.join(" ", described));
    }
    int matched = random.nextInt(4);
    for (int i = 0; i < matched; i++) {
      int condition = random.nextInt(6);
      MergeSpec.Matched when = builder.whenMatched(matchedCondition(condition, random.nextInt(3)));
      int action = random.nextInt(6);
      described.add("WHEN MATCHED" + conditionText(condition) + " THEN " + matchedAction(when, action));
    }
    int notMatched = random.nextInt(3);
    for (int i = 0; i < notMatched; i++) {
      int condition = random.nextInt(3);
      MergeSpec.NotMatched when = builder.whenNotMatched(matchedCondition(condition, random.nextInt(3)));
      described.add("WHEN NOT MATCHED" + conditionText(condition) + " THEN " + insertAction(when, random.nextInt(3)));
    }
    if (matched + notMatched == 0) {
      builder.whenMatched().thenDelete();
      described.add("WHEN MATCHED THEN DELETE");
    }
    return new Generated(builder.build(), String.join(" ", described));
  }

  private static Condition matchedCondition(int kind, int remainder) {
    return switch (kind) {
      case 0 -> Condition.always();
      case 1 -> Condition.onSource(s -> s.get("a") != null && (Integer) s.get("a") % 3 == remainder);
      case 2 -> Condition.onSource(s -> s.get("b") == null);
      case 3 -> Condition.withTarget(List.of("c"), (s, t) -> t.get("c") != null && (Long) t.get("c") % 2 == remainder % 2);
      case 4 -> Condition.withTarget(List.of("a"), (s, t) -> s.get("a") != null && t.get("a") != null
          && (Integer) s.get("a") > (Integer) t.get("a"));
      default -> Condition.withTarget(List.of("b"), (s, t) -> t.get("b") == null);
    };
  }

  private static String conditionText(int kind) {
    return switch (kind) {
      case 0 -> "";
      case 1 -> " AND s.a % 3 = r";
      case 2 -> " AND s.b IS NULL";
      case 3 -> " AND t.c % 2 = r";
      case 4 -> " AND s.a > t.a";
      default -> " AND t.b IS NULL";
    };
  }

  private static String matchedAction(MergeSpec.Matched when, int kind) {
    switch (kind) {
      case 0 -> {
        when.thenDelete();
        return "DELETE";
      }
      case 1 -> {
        when.thenUpdateAll();
        return "UPDATE SET *";
      }
      case 2 -> {
        when.thenUpdate(Assignment.fromSource("a"));
        return "UPDATE SET a = s.a";
      }
      case 3 -> {
        when.thenUpdate(Assignment.withTarget("c", List.of("c"), (s, t) -> t.get("c") == null ? 0L : (Long) t.get("c") + 1));
        return "UPDATE SET c = coalesce(t.c + 1, 0)";
      }
      case 4 -> {
        when.thenUpdate(Assignment.computed("b", s -> "m" + s.get("a")), Assignment.withTarget("a", List.of("a"), (s, t) -> t.get("a")));
        return "UPDATE SET b = 'm' || s.a, a = t.a";
      }
      default -> {
        when.thenUpdate(Assignment.computed("c", s -> s.get("a") == null ? null : (Integer) s.get("a") * 10L));
        return "UPDATE SET c = s.a * 10";
      }
    }
  }

  private static String insertAction(MergeSpec.NotMatched when, int kind) {
    switch (kind) {
      case 0 -> {
        when.thenInsertAll();
        return "INSERT *";
      }
      case 1 -> {
        when.thenInsert(Assignment.fromSource("a"));
        return "INSERT (id, a)";
      }
      default -> {
        when.thenInsert(Assignment.computed("c", s -> s.get("a") == null ? null : (Integer) s.get("a") * 10L),
            Assignment.fromSource("b"));
        return "INSERT (id, c = s.a * 10, b)";
      }
    }
  }
}
