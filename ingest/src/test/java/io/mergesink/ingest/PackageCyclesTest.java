package io.mergesink.ingest;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.mergesink.core.testing.TopLevelPackages;
import org.junit.jupiter.api.Test;

/** The packages of the engine, its root package included, depend on each other without cycles (docs/design.md, "Modules"). */
class PackageCyclesTest {
  @Test
  void topLevelPackagesHaveNoCycles() {
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.mergesink.ingest");
    slices().assignedFrom(TopLevelPackages.under("io.mergesink.ingest")).should().beFreeOfCycles().check(classes);
  }
}
