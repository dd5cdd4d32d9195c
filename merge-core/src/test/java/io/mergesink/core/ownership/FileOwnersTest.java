package io.mergesink.core.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mergesink.core.log.AddFile;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The set semantics of file owners: tags round-trip, unions keep every owner, an untagged file is anyone's. */
class FileOwnersTest {
  @Test
  void ownersRoundTripThroughTheTag() {
    FileOwners owners = FileOwners.of(List.of("t:2", "t:0", "t:10"));
    assertThat(owners.tags()).isEqualTo(Map.of(FileOwners.TAG, "t:0,t:10,t:2"));
    assertThat(FileOwners.of(file(owners.tags()))).isEqualTo(owners);
  }

  @Test
  void aFileWithoutTheTagMayHoldAnyonesRows() {
    FileOwners untagged = FileOwners.of(file(null));
    assertThat(untagged.isAnyone()).isTrue();
    assertThat(FileOwners.of(file(Map.of("other", "x")))).isEqualTo(untagged);
    assertThat(untagged.mayHoldRowsOf(name -> false)).isTrue();
    assertThat(untagged.tags()).isEmpty();
  }

  @Test
  void aUnionNamesEveryOwnerAndAnyoneAbsorbsIt() {
    FileOwners a = FileOwners.of(List.of("t:0", "t:1"));
    FileOwners b = FileOwners.of(List.of("t:1", "t:2"));
    assertThat(a.union(b)).isEqualTo(FileOwners.of(List.of("t:0", "t:1", "t:2")));
    assertThat(a.union(FileOwners.anyone()).isAnyone()).isTrue();
    assertThat(FileOwners.anyone().union(a).isAnyone()).isTrue();
  }

  @Test
  void aScopeCoversTheFilesThatMayHoldItsOwnersRows() {
    FileOwners mine = FileOwners.of(List.of("t:2", "t:3"));
    OwnerScope scope = OwnerScope.of(mine);
    assertThat(scope.files(null).test(file(FileOwners.of(List.of("t:0", "t:1", "t:2", "t:3")).tags()))).isTrue();
    assertThat(scope.files(null).test(file(FileOwners.of(List.of("t:0", "t:1")).tags()))).isFalse();
    assertThat(scope.files(null).test(file(null))).isTrue();
    assertThat(OwnerScope.of(FileOwners.anyone())).isSameAs(OwnerScope.EVERY_FILE);
  }

  @Test
  void ownerNamesCannotHoldTheSeparator() {
    assertThatThrownBy(() -> FileOwners.of(Set.of("a,b"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a,b");
  }

  private static AddFile file(Map<String, String> tags) {
    return new AddFile("part-0.parquet", Map.of(), 1, 0, true, null, tags, null, null, null);
  }
}
