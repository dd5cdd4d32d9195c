package io.mergesink.compat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.objectweb.asm.Opcodes;

/**
 * One class as the compatibility checks see it: its supertypes, its declared members with their
 * access flags, and (for the plugin's classes) what it refers to. Names are internal names
 * ({@code org/apache/kafka/connect/sink/SinkTask}).
 *
 * @param source the jar (or "JDK") the class came from, for messages
 * @param methods declared methods and constructors, {@code name + descriptor} → access flags
 * @param fields declared fields, {@code name + ":" + descriptor} → access flags
 * @param requiredWorker the worker version the class declares it needs (its {@code RequiresWorker}
 *     annotation), or null
 * @param references what the class's code and signatures refer to; empty for worker and JDK classes
 */
record ClassInfo(String name, String source, int access, String superName, List<String> interfaces,
    Map<String, Integer> methods, Map<String, Integer> fields, String requiredWorker, Set<Reference> references) {

  boolean isConcrete() {
    return (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_INTERFACE)) == 0;
  }

  /** The supertypes, superclass first (none for {@code java/lang/Object}). */
  List<String> supertypes() {
    if (superName == null) {
      return interfaces;
    }
    return Stream.concat(Stream.of(superName), interfaces.stream()).toList();
  }

  /** What a class refers to: a class by name, or a field or method of {@code owner}. */
  record Reference(Kind kind, String owner, String name, String descriptor) {
    enum Kind { CLASS, FIELD, METHOD }

    static Reference toClass(String owner) {
      return new Reference(Kind.CLASS, owner, null, null);
    }

    /** The member's key in {@link ClassInfo#methods()} or {@link ClassInfo#fields()}. */
    String memberKey() {
      return kind == Kind.FIELD ? name + ":" + descriptor : name + descriptor;
    }

    @Override
    public String toString() {
      String type = owner.replace('/', '.');
      return switch (kind) {
        case CLASS -> "class " + type;
        case FIELD -> "field " + type + "." + name + " (" + descriptor + ")";
        case METHOD -> "method " + type + "." + name + descriptor;
      };
    }
  }
}
