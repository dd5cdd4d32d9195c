package io.mergesink.core.testing;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * Slices for package rules: one per package directly under a root package, with its subpackages,
 * and one for the classes of the root package itself (which {@code matching("root.(*)..")} would
 * leave out). Classes outside the root are in no slice.
 */
public final class TopLevelPackages implements SliceAssignment {
  private final String root;

  private TopLevelPackages(String root) {
    this.root = root;
  }

  /** The top-level packages under {@code root}, the root included. */
  public static TopLevelPackages under(String root) {
    return new TopLevelPackages(root);
  }

  @Override
  public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
    String name = javaClass.getPackageName();
    if (name.equals(root)) {
      return SliceIdentifier.of(root);
    }
    if (!name.startsWith(root + ".")) {
      return SliceIdentifier.ignore();
    }
    String relative = name.substring(root.length() + 1);
    int dot = relative.indexOf('.');
    return SliceIdentifier.of(root + "." + (dot < 0 ? relative : relative.substring(0, dot)));
  }

  @Override
  public String getDescription() {
    return "top-level packages under " + root + ", the root included";
  }
}
