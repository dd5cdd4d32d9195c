package io.mergesink.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Reads class files with ASM into {@link ClassInfo}s: the plugin's with every reference its code
 * and signatures make, a worker's with declarations only.
 */
final class ClassScanner {
  /** The plugin's annotation for classes loaded only on workers that have the API they use. */
  static final String REQUIRES_WORKER = "Lio/mergesink/connect/compat/RequiresWorker;";
  /** Class files under META-INF/versions/N of a multi-release jar apply from Java N on; workers run Java 17. */
  private static final int JAVA_RELEASE = 17;
  private static final String VERSIONS_PREFIX = "META-INF/versions/";

  /** How much of a class file to keep. */
  private enum Detail { DECLARATIONS, REFERENCES }

  private ClassScanner() {}

  /** Every class of {@code jars} whose name {@code include} accepts, declarations only. */
  static Map<String, ClassInfo> declarations(List<Path> jars, Predicate<String> include) {
    return scan(jars, include, Detail.DECLARATIONS);
  }

  /** Every class of {@code jars}, with what each refers to. */
  static Map<String, ClassInfo> withReferences(List<Path> jars) {
    return scan(jars, name -> true, Detail.REFERENCES);
  }

  private static Map<String, ClassInfo> scan(List<Path> jars, Predicate<String> include, Detail detail) {
    Map<String, ClassInfo> classes = new HashMap<>();
    // Reading the code of every class of Hadoop's jars is most of the cost: only classes that name a
    // worker package can refer to it, except those that inherit from a worker type, read again below.
    List<String> codeSkipped = new ArrayList<>();
    Map<String, Path> jarOf = new HashMap<>();
    for (Path jar : jars) {
      if (!jar.getFileName().toString().endsWith(".jar")) {
        continue;
      }
      for (ClassFile file : classFiles(jar, include)) {
        Detail read = detail == Detail.REFERENCES && !mentionsWorkerPackage(file.bytes()) ? Detail.DECLARATIONS : detail;
        ClassInfo info = read(jar, file.bytes(), read);
        classes.put(info.name(), info);
        jarOf.put(info.name(), jar);
        if (read != detail) {
          codeSkipped.add(info.name());
        }
      }
    }
    for (String name : codeSkipped) {
      if (inheritsFromWorker(classes, name)) {
        Path jar = jarOf.get(name);
        for (ClassFile file : classFiles(jar, name::equals)) {
          classes.put(name, read(jar, file.bytes(), Detail.REFERENCES));
        }
      }
    }
    return classes;
  }

  private record ClassFile(String name, byte[] bytes) {}

  /** The class files of {@code jar} for Java 17 (a multi-release jar's versioned entry replaces its base entry). */
  private static List<ClassFile> classFiles(Path jar, Predicate<String> include) {
    Map<String, ClassFile> files = new LinkedHashMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      List<JarEntry> entries = file.stream().filter(e -> isClassFile(e.getName()))
          .sorted(Comparator.comparingInt(e -> release(e.getName()))).toList();
      for (JarEntry entry : entries) {
        String name = className(entry.getName());
        if (release(entry.getName()) > JAVA_RELEASE || name.endsWith("module-info") || !include.test(name)) {
          continue;
        }
        try (InputStream in = file.getInputStream(entry)) {
          files.put(name, new ClassFile(name, in.readAllBytes()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + jar, e);
    }
    return List.copyOf(files.values());
  }

  private static ClassInfo read(Path jar, byte[] bytes, Detail detail) {
    Collector collector = new Collector(jar.getFileName().toString(), detail);
    int options = ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG | (detail == Detail.REFERENCES ? 0 : ClassReader.SKIP_CODE);
    new ClassReader(bytes).accept(collector, options);
    return collector.info();
  }

  /** Whether the constant pool names a class of a worker package (names are stored as plain UTF-8). */
  private static boolean mentionsWorkerPackage(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    return text.contains("org/apache/kafka/") || text.contains("org/slf4j/");
  }

  private static boolean inheritsFromWorker(Map<String, ClassInfo> classes, String name) {
    ClassInfo type = classes.get(name);
    return type != null && type.supertypes().stream()
        .anyMatch(supertype -> WorkerApi.isWorkerProvided(supertype) || inheritsFromWorker(classes, supertype));
  }

  private static boolean isClassFile(String entry) {
    return entry.endsWith(".class") && (!entry.startsWith("META-INF/") || entry.startsWith(VERSIONS_PREFIX));
  }

  private static int release(String entry) {
    if (!entry.startsWith(VERSIONS_PREFIX)) {
      return 0;
    }
    String rest = entry.substring(VERSIONS_PREFIX.length());
    return Integer.parseInt(rest.substring(0, rest.indexOf('/')));
  }

  private static String className(String entry) {
    String path = entry.startsWith(VERSIONS_PREFIX)
        ? entry.substring(entry.indexOf('/', VERSIONS_PREFIX.length()) + 1) : entry;
    return path.substring(0, path.length() - ".class".length());
  }

  /** Builds one {@link ClassInfo}; collects references only for {@link Detail#REFERENCES}. */
  private static final class Collector extends ClassVisitor {
    private final String source;
    private final Set<ClassInfo.Reference> references;
    private final Map<String, Integer> methods = new HashMap<>();
    private final Map<String, Integer> fields = new HashMap<>();
    private String name;
    private int access;
    private String superName;
    private List<String> interfaces = List.of();
    private String requiredWorker;

    Collector(String source, Detail detail) {
      super(Opcodes.ASM9);
      this.source = source;
      this.references = detail == Detail.REFERENCES ? new LinkedHashSet<>() : null;
    }

    ClassInfo info() {
      return new ClassInfo(name, source, access, superName, interfaces, Map.copyOf(methods), Map.copyOf(fields),
          requiredWorker, references == null ? Set.of() : Set.copyOf(references));
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
      this.name = name;
      this.access = access;
      this.superName = superName;
      this.interfaces = interfaces == null ? List.of() : List.of(interfaces);
      if (superName != null) {
        typeReference(superName);
      }
      this.interfaces.forEach(this::typeReference);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      if (!REQUIRES_WORKER.equals(descriptor)) {
        return null;
      }
      return new AnnotationVisitor(Opcodes.ASM9) {
        @Override
        public void visit(String element, Object value) {
          if ("value".equals(element)) {
            requiredWorker = (String) value;
          }
        }
      };
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
      fields.put(name + ":" + descriptor, access);
      descriptorReferences(Type.getType(descriptor));
      return null;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      methods.put(name + descriptor, access);
      descriptorReferences(Type.getMethodType(descriptor));
      return references == null ? null : new CodeCollector();
    }

    private void typeReference(String internalName) {
      if (references != null && !internalName.startsWith("[")) {
        references.add(ClassInfo.Reference.toClass(internalName));
      }
    }

    private void descriptorReferences(Type type) {
      if (references == null) {
        return;
      }
      if (type.getSort() == Type.METHOD) {
        for (Type argument : type.getArgumentTypes()) {
          descriptorReferences(argument);
        }
        descriptorReferences(type.getReturnType());
      } else if (type.getSort() == Type.ARRAY) {
        descriptorReferences(type.getElementType());
      } else if (type.getSort() == Type.OBJECT) {
        typeReference(type.getInternalName());
      }
    }

    private void memberReference(ClassInfo.Reference.Kind kind, String owner, String member, String descriptor) {
      if (owner.startsWith("[")) {
        return; // array methods (clone) are the JVM's
      }
      typeReference(owner);
      references.add(new ClassInfo.Reference(kind, owner, member, descriptor));
      descriptorReferences(kind == ClassInfo.Reference.Kind.FIELD ? Type.getType(descriptor) : Type.getMethodType(descriptor));
    }

    private void handleReference(Handle handle) {
      ClassInfo.Reference.Kind kind = handle.getTag() <= Opcodes.H_PUTSTATIC
          ? ClassInfo.Reference.Kind.FIELD : ClassInfo.Reference.Kind.METHOD;
      memberReference(kind, handle.getOwner(), handle.getName(), handle.getDesc());
    }

    private void constantReference(Object constant) {
      if (constant instanceof Type type) {
        descriptorReferences(type);
      } else if (constant instanceof Handle handle) {
        handleReference(handle);
      }
    }

    /** What a method's code refers to. */
    private final class CodeCollector extends MethodVisitor {
      CodeCollector() {
        super(Opcodes.ASM9);
      }

      @Override
      public void visitTypeInsn(int opcode, String type) {
        descriptorReferences(Type.getObjectType(type));
      }

      @Override
      public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        memberReference(ClassInfo.Reference.Kind.FIELD, owner, name, descriptor);
      }

      @Override
      public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        memberReference(ClassInfo.Reference.Kind.METHOD, owner, name, descriptor);
      }

      @Override
      public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        descriptorReferences(Type.getMethodType(descriptor));
        for (Object argument : arguments) {
          constantReference(argument);
        }
        // A lambda implements the functional interface's method: name of the call site, erased type first argument.
        if ("java/lang/invoke/LambdaMetafactory".equals(bootstrap.getOwner()) && arguments.length > 0
            && arguments[0] instanceof Type samType) {
          String functionalInterface = Type.getReturnType(descriptor).getInternalName();
          memberReference(ClassInfo.Reference.Kind.METHOD, functionalInterface, name, samType.getDescriptor());
        }
      }

      @Override
      public void visitLdcInsn(Object value) {
        constantReference(value);
      }

      @Override
      public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
        descriptorReferences(Type.getType(descriptor));
      }

      @Override
      public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
        if (type != null) {
          typeReference(type);
        }
      }
    }
  }
}
