package io.mergesink.core;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The packages of merge-core depend on each other without cycles (docs/design.md, "Modules"). */
class PackageCyclesTest {
  @Test
  void topLevelPackagesHaveNoCycles() {
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.mergesink.core");
    slices().matching("io.mergesink.core.(*)..").should().beFreeOfCycles().check(classes);
  }
}
