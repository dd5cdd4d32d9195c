package io.mergesink.compat;

import io.mergesink.compat.ClassInfo.Reference;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The classes the plugin sees on one Kafka Connect worker version, and the check of the plugin's
 * references against them.
 *
 * <p>A worker loads the classes of its own API packages ({@code org.apache.kafka.*},
 * {@code org.slf4j.*}; Connect's {@code PluginUtils}) for every plugin from its class path, so a
 * plugin's calls into them must exist in that worker's jars, whatever Kafka version the plugin was
 * compiled against. Everything else resolves in the plugin's own jars or the JDK.
 */
final class WorkerApi {
  private final String version;
  private final Map<String, ClassInfo> worker;
  private final Map<String, ClassInfo> plugin;
  private final Map<String, Optional<ClassInfo>> jdk = new HashMap<>();
  private final Map<String, Boolean> extendsWorker = new HashMap<>();

  private WorkerApi(String version, Map<String, ClassInfo> worker, Map<String, ClassInfo> plugin) {
    this.version = version;
    this.worker = worker;
    this.plugin = plugin;
  }

  /** The API of worker {@code version} (its jars from {@link SupportedWorkers#classpath}) for {@code plugin}. */
  static WorkerApi load(String version, Map<String, ClassInfo> plugin) {
    return new WorkerApi(version, ClassScanner.declarations(SupportedWorkers.classpath(version),
        WorkerApi::isWorkerProvided), plugin);
  }

  /** Whether a worker gives plugins its own copy of the class (PluginUtils' parent-first packages). */
  static boolean isWorkerProvided(String internalName) {
    return internalName.startsWith("org/apache/kafka/") || internalName.startsWith("org/slf4j/");
  }

  /** Orders versions such as 3.6.2, 4.1 and 4.10.0 numerically; missing parts count as 0. */
  static int compareVersions(String a, String b) {
    int[] left = Arrays.stream(a.split("\\.")).mapToInt(Integer::parseInt).toArray();
    int[] right = Arrays.stream(b.split("\\.")).mapToInt(Integer::parseInt).toArray();
    for (int i = 0; i < Math.max(left.length, right.length); i++) {
      int difference = Integer.compare(i < left.length ? left[i] : 0, i < right.length ? right[i] : 0);
      if (difference != 0) {
        return difference;
      }
    }
    return 0;
  }

  /** What the check found: how many references to the worker it checked, and the problems. */
  record Report(int checked, List<String> unresolved, List<String> unimplemented) {}

  /**
   * Checks every plugin class this worker loads (all but those whose {@code RequiresWorker} names a
   * newer version): each reference to a worker class, field or method, including members inherited
   * from worker types, must exist in this worker; each concrete class must implement every
   * abstract method its worker supertypes have here.
   */
  Report check() {
    int checked = 0;
    List<String> unresolved = new ArrayList<>();
    List<String> unimplemented = new ArrayList<>();
    for (ClassInfo type : plugin.values().stream().sorted(Comparator.comparing(ClassInfo::name)).toList()) {
      if (type.requiredWorker() != null && compareVersions(version, type.requiredWorker()) < 0) {
        continue;
      }
      for (Reference reference : type.references()) {
        if (!isWorkerProvided(reference.owner()) && !extendsWorker(reference.owner())) {
          continue;
        }
        checked++;
        if (resolve(reference) == Resolution.MISSING) {
          unresolved.add(where(type) + " uses " + reference);
        }
      }
      if (type.isConcrete() && extendsWorker(type.name())) {
        for (String method : abstractWorkerMethods(type)) {
          if (!implemented(type, method)) {
            unimplemented.add(where(type) + " does not implement " + method);
          }
        }
      }
    }
    return new Report(checked, unresolved, unimplemented);
  }

  private static String where(ClassInfo type) {
    return type.name().replace('/', '.') + " (" + type.source() + ")";
  }

  private enum Resolution { FOUND, MISSING, UNKNOWN }

  private Resolution resolve(Reference reference) {
    return switch (reference.kind()) {
      case CLASS -> isWorkerProvided(reference.owner()) && !worker.containsKey(reference.owner())
          ? Resolution.MISSING : Resolution.FOUND;
      case FIELD -> findMember(reference.owner(), reference.memberKey(), Reference.Kind.FIELD);
      case METHOD -> reference.name().equals("<init>")
          ? declared(reference.owner(), reference.memberKey())
          : findMember(reference.owner(), reference.memberKey(), Reference.Kind.METHOD);
    };
  }

  /** A constructor: declared by the class itself. */
  private Resolution declared(String owner, String key) {
    Lookup lookup = lookup(owner);
    if (lookup.type() == null) {
      return lookup.resolution();
    }
    return lookup.type().methods().containsKey(key) ? Resolution.FOUND : Resolution.MISSING;
  }

  /** A field or method: declared by the class or one of its supertypes (JVMS 5.4.3.2, 5.4.3.3). */
  private Resolution findMember(String owner, String key, Reference.Kind kind) {
    Lookup lookup = lookup(owner);
    if (lookup.type() == null) {
      return lookup.resolution();
    }
    Map<String, Integer> members = kind == Reference.Kind.FIELD ? lookup.type().fields() : lookup.type().methods();
    if (members.containsKey(key)) {
      return Resolution.FOUND;
    }
    Resolution result = Resolution.MISSING;
    for (String supertype : lookup.type().supertypes()) {
      Resolution inherited = findMember(supertype, key, kind);
      if (inherited == Resolution.FOUND) {
        return Resolution.FOUND;
      }
      if (inherited == Resolution.UNKNOWN) {
        result = Resolution.UNKNOWN;
      }
    }
    return result;
  }

  /** A class as this worker's plugin class loader finds it: null with MISSING or UNKNOWN when it does not. */
  private record Lookup(ClassInfo type, Resolution resolution) {}

  private Lookup lookup(String name) {
    if (isWorkerProvided(name)) {
      ClassInfo type = worker.get(name);
      return new Lookup(type, type == null ? Resolution.MISSING : Resolution.FOUND);
    }
    ClassInfo type = plugin.containsKey(name) ? plugin.get(name) : jdkClass(name).orElse(null);
    // Neither: an optional dependency of a bundled library; nothing to say about its members.
    return new Lookup(type, type == null ? Resolution.UNKNOWN : Resolution.FOUND);
  }

  /** Whether a plugin class has a worker class among its supertypes. */
  private boolean extendsWorker(String name) {
    Boolean known = extendsWorker.get(name);
    if (known != null) {
      return known;
    }
    ClassInfo type = plugin.get(name);
    boolean result = type != null && type.supertypes().stream()
        .anyMatch(supertype -> isWorkerProvided(supertype) || extendsWorker(supertype));
    extendsWorker.put(name, result);
    return result;
  }

  /** The abstract methods ({@code name + descriptor}) that the worker's supertypes of {@code type} declare. */
  private Set<String> abstractWorkerMethods(ClassInfo type) {
    Set<String> methods = new LinkedHashSet<>();
    for (ClassInfo supertype : allSupertypes(type)) {
      if (isWorkerProvided(supertype.name())) {
        supertype.methods().forEach((method, access) -> {
          if ((access & Opcodes.ACC_ABSTRACT) != 0) {
            methods.add(method);
          }
        });
      }
    }
    return methods;
  }

  /** Whether a non-abstract {@code method} reaches {@code type}: from its class chain, or a default method. */
  private boolean implemented(ClassInfo type, String method) {
    for (ClassInfo current = type; current != null; ) {
      Integer access = current.methods().get(method);
      if (access != null && (access & Opcodes.ACC_ABSTRACT) == 0) {
        return true;
      }
      if (current.superName() == null) {
        break;
      }
      Lookup parent = lookup(current.superName());
      if (parent.resolution() == Resolution.UNKNOWN) {
        return true; // cannot tell
      }
      current = parent.type();
    }
    for (ClassInfo supertype : allSupertypes(type)) {
      Integer access = supertype.methods().get(method);
      if (access != null && (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_STATIC)) == 0) {
        return true;
      }
    }
    return false;
  }

  private List<ClassInfo> allSupertypes(ClassInfo type) {
    List<ClassInfo> found = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    List<String> pending = new ArrayList<>(type.supertypes());
    while (!pending.isEmpty()) {
      String name = pending.remove(pending.size() - 1);
      if (seen.add(name)) {
        ClassInfo supertype = lookup(name).type();
        if (supertype != null) {
          found.add(supertype);
          pending.addAll(supertype.supertypes());
        }
      }
    }
    return found;
  }

  /** A JDK class (the plugin runs on Java 17 like this test), read by reflection; empty for anything else. */
  private Optional<ClassInfo> jdkClass(String name) {
    return jdk.computeIfAbsent(name, key -> {
      try {
        Class<?> type = Class.forName(key.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
        Map<String, Integer> methods = new HashMap<>();
        for (Method method : type.getDeclaredMethods()) {
          methods.put(method.getName() + Type.getMethodDescriptor(method), method.getModifiers());
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
          methods.put("<init>" + Type.getConstructorDescriptor(constructor), constructor.getModifiers());
        }
        Map<String, Integer> fields = new HashMap<>();
        for (Field field : type.getDeclaredFields()) {
          fields.put(field.getName() + ":" + Type.getDescriptor(field.getType()), field.getModifiers());
        }
        int access = type.getModifiers() | (type.isInterface() ? Opcodes.ACC_INTERFACE : 0);
        String superName = type.getSuperclass() == null ? null : Type.getInternalName(type.getSuperclass());
        List<String> interfaces = Arrays.stream(type.getInterfaces()).map(Type::getInternalName).toList();
        return Optional.of(new ClassInfo(key, "JDK", access, superName, interfaces, methods, fields, null, Set.of()));
      } catch (ClassNotFoundException | LinkageError e) {
        return Optional.empty();
      }
    });
  }
}
