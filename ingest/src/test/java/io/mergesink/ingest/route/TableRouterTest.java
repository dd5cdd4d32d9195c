package io.mergesink.ingest.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.ingest.decode.ChangeEvent;
import io.mergesink.ingest.decode.SourceInfo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TableRouterTest {
  private static String route(String format, String topic, SourceInfo source) {
    return new TableRouter(TableNameTemplate.parse(format)).route(topic, source);
  }

  @Test
  void substitutesTopicAndSourceCoordinates() {
    SourceInfo source = new SourceInfo("shop", "public", "customers");
    assertThat(route("${topic}", "pg.public.customers", source)).isEqualTo("pg.public.customers");
    assertThat(route("${source.db}/${source.schema}_${source.table}", "t", source)).isEqualTo("shop/public_customers");
    assertThat(route("cdc/${source.table}-v1", "t", source)).isEqualTo("cdc/customers-v1");
  }

  @Test
  void valuesCannotEscapeTheRoot() {
    assertThat(route("${source.table}", "t", new SourceInfo(null, null, ".."))).isEqualTo("_.");
    assertThat(route("${source.table}", "t", new SourceInfo(null, null, "."))).isEqualTo("_");
    assertThat(route("${source.table}", "t", new SourceInfo(null, null, "../../etc"))).isEqualTo("_._.._etc");
    assertThat(route("${source.table}", "t", new SourceInfo(null, null, "/abs/path"))).isEqualTo("_abs_path");
    assertThat(route("${source.table}", "t", new SourceInfo(null, null, "a\\..\\b"))).isEqualTo("a_.._b");
    assertThat(route("${source.db}/${source.table}", "t", new SourceInfo("", null, ""))).isEqualTo("_/_");
    for (String hostile : new String[] {"..", "../x", "/", "\\", "", ".hidden", "a/../../b"}) {
      String routed = route("${source.db}/${topic}", hostile, new SourceInfo(hostile, null, null));
      Path root = Path.of("/lake");
      assertThat(root.resolve(routed).normalize().startsWith(root)).as(routed).isTrue();
      for (String segment : routed.split("/")) {
        assertThat(segment).isNotEmpty().doesNotStartWith(".");
      }
    }
  }

  @Test
  void unicodeIsReplacedPerCodePointAfterNormalisation() {
    assertThat(TableRouter.sanitize("café")).isEqualTo("caf_");
    assertThat(TableRouter.sanitize("cafe\u0301")).isEqualTo("caf_"); // decomposed é: the same name
    assertThat(TableRouter.sanitize("表\uD83D\uDE00")).isEqualTo("__"); // a surrogate pair is one character
    assertThat(TableRouter.sanitize("a b;c")).isEqualTo("a_b_c");
  }

  @Test
  void longValuesAreCappedWithADistinguishingHash() {
    String a = "x".repeat(300) + "a";
    String b = "x".repeat(300) + "b";
    assertThat(TableRouter.sanitize(a)).hasSize(TableRouter.MAX_VALUE_LENGTH).matches("x+-[0-9a-f]{8}");
    assertThat(TableRouter.sanitize(a)).isNotEqualTo(TableRouter.sanitize(b));
    assertThat(TableRouter.sanitize("y".repeat(TableRouter.MAX_VALUE_LENGTH))).isEqualTo("y".repeat(128));
  }

  @Test
  void missingSourceCoordinateNamesTheRecord() {
    TableRouter router = new TableRouter(TableNameTemplate.parse("${source.schema}/${source.table}"));
    ChangeEvent event = ChangeEvent.skip("t", "orig", 3, 99, 0);
    assertThatThrownBy(() -> router.route(event)).isInstanceOf(RoutingException.class)
        .hasMessageContaining("topic orig, partition 3, offset 99")
        .hasMessageContaining("uses ${source.schema} but the record has no such value");
  }

  @Test
  void templateRejectsUnknownPlaceholdersAndUnsafeLiterals() {
    assertThatThrownBy(() -> TableNameTemplate.parse("${source.tabel}"))
        .hasMessage("unknown placeholder ${source.tabel} at position 0 of '${source.tabel}': expected one of "
            + "[${topic}, ${source.db}, ${source.schema}, ${source.table}]");
    assertThatThrownBy(() -> TableNameTemplate.parse("x_${topic")).hasMessageContaining("unterminated placeholder at position 2");
    assertThatThrownBy(() -> TableNameTemplate.parse("../${topic}")).hasMessageContaining("must not start with '.'");
    assertThatThrownBy(() -> TableNameTemplate.parse("/abs/${topic}")).hasMessageContaining("empty directory name");
    assertThatThrownBy(() -> TableNameTemplate.parse("a//${topic}")).hasMessageContaining("empty directory name");
    assertThatThrownBy(() -> TableNameTemplate.parse("a\\${topic}")).hasMessageContaining("characters other than");
    assertThatThrownBy(() -> TableNameTemplate.parse(" ")).hasMessageContaining("empty");
    assertThat(TableRouter.resolve("s3a://bucket/lake/", "a/b")).isEqualTo("s3a://bucket/lake/a/b");
    assertThat(TableRouter.resolve("/", "a")).isEqualTo("/a");
  }
}
