/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The transport's shape, checked on its compiled classes (docs/development.md#layers): packages depend only
 * downwards, the native layer is the only one that declares or calls JNI methods, no class assigns another's
 * fields, and no cycle of classes is longer than {@link #MAX_CYCLE}.
 */
class ArchitectureTest {
    private static final String BASE = "io.github.nettyucx";
    private static final String JNI = BASE + ".jni..";
    private static final String BUFFER = BASE + ".buffer..";
    private static final String LOOP = BASE + ".loop..";
    private static final String HANDSHAKE = BASE + ".handshake..";
    private static final String DATA_PATH = BASE + ".datapath..";
    private static final String TRANSPORT = BASE + ".transport..";
    /** The longest cycle of classes allowed. */
    private static final int MAX_CYCLE = 6;

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(BASE);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching(BASE + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void packagesDependOnlyDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("native").definedBy(JNI)
                .layer("buffer").definedBy(BUFFER)
                .layer("loop").definedBy(LOOP)
                .layer("handshake").definedBy(HANDSHAKE)
                .layer("data paths").definedBy(DATA_PATH)
                .layer("channels").definedBy(TRANSPORT)
                .whereLayer("channels").mayNotBeAccessedByAnyLayer()
                .whereLayer("data paths").mayOnlyBeAccessedByLayers("channels")
                .whereLayer("handshake").mayOnlyBeAccessedByLayers("data paths", "channels")
                .whereLayer("loop").mayOnlyBeAccessedByLayers("handshake", "data paths", "channels")
                .whereLayer("buffer").mayOnlyBeAccessedByLayers("loop", "handshake", "data paths", "channels")
                .whereLayer("native").mayOnlyBeAccessedByLayers("buffer", "loop", "handshake", "data paths", "channels")
                .check(classes);
    }

    @Test
    void onlyTheNativeLayerDeclaresNativeMethods() {
        methods().that().haveModifier(JavaModifier.NATIVE).should().beDeclaredInClassesThat().resideInAPackage(JNI)
                .check(classes);
    }

    @Test
    void onlyTheNativeLayerCallsNativeMethods() {
        noClasses().that().resideOutsideOfPackage(JNI).should()
                .callMethodWhere(DescribedPredicate.describe("a JNI method of the project",
                        call -> call.getTargetOwner().getPackageName().startsWith(BASE)
                                && call.getTarget().resolveMember()
                                        .map(method -> method.getModifiers().contains(JavaModifier.NATIVE))
                                        .orElse(false)))
                .because("the native layer's objects (UcxFd, UcxNativeWorker, UcxNativeConnection, UcxMemoryRegion) "
                        + "and UcxProcess are the transport's way to the native library")
                .check(classes);
    }

    /**
     * A class owns its state: no class assigns a field of another class, so that whoever reads a field finds every
     * write to it in its class. Inner classes (a channel's unsafe, lambdas, anonymous classes) are part of the
     * instance that encloses them, as in Netty's channels; a static nested class is a class of its own.
     */
    @Test
    void noClassAssignsAnotherClassesFields() {
        List<String> writes = new ArrayList<>();
        for (JavaClass javaClass : classes) {
            for (JavaFieldAccess access : javaClass.getFieldAccessesFromSelf()) {
                JavaClass owner = access.getTargetOwner();
                if (access.getAccessType() == JavaFieldAccess.AccessType.SET
                        && owner.getPackageName().startsWith(BASE)
                        && !instanceOwner(owner).equals(instanceOwner(javaClass))) {
                    writes.add(access.getDescription());
                }
            }
        }
        assertEquals(List.of(), writes, "fields assigned from outside their class (give the owner a method)");
    }

    /** The class whose instances a class's code works on: itself, or for an inner class its enclosing class's. */
    private static String instanceOwner(JavaClass javaClass) {
        JavaClass owner = javaClass;
        while ((owner.isInnerClass() || owner.isAnonymousClass() || owner.isLocalClass())
                && owner.getEnclosingClass().isPresent()) {
            owner = owner.getEnclosingClass().get();
        }
        return owner.getName();
    }

    @Test
    void noCycleOfClassesIsLongerThanSix() {
        Map<String, Set<String>> dependencies = dependenciesBetweenTopLevelClasses();
        List<Set<String>> tooLong = new ArrayList<>();
        for (Set<String> cycle : stronglyConnected(dependencies)) {
            if (cycle.size() > MAX_CYCLE) {
                tooLong.add(cycle);
            }
        }
        assertEquals(List.of(), tooLong, "cycles of classes longer than " + MAX_CYCLE
                + " (break them: a lower class must not know a higher one)");
    }

    /** Each top-level class of the project and the others it depends on (nested classes count as their owner's). */
    private static Map<String, Set<String>> dependenciesBetweenTopLevelClasses() {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (JavaClass javaClass : classes) {
            String from = topLevel(javaClass);
            Set<String> targets = edges.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency dependency : javaClass.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                if (target.getPackageName().startsWith(BASE)) {
                    String to = topLevel(target);
                    if (!to.equals(from)) {
                        targets.add(to);
                    }
                }
            }
        }
        return edges;
    }

    private static String topLevel(JavaClass javaClass) {
        String name = javaClass.getName();
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    /** Tarjan's strongly connected components, iteratively; each set of two or more is a cycle. */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        int[] next = {0};
        for (String root : edges.keySet()) {
            if (!index.containsKey(root)) {
                connect(root, edges, index, low, stack, onStack, components, next);
            }
        }
        return components;
    }

    private static void connect(String root, Map<String, Set<String>> edges, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> components,
            int[] next) {
        Deque<Object[]> work = new ArrayDeque<>();
        work.push(new Object[] {root, List.copyOf(edges.getOrDefault(root, Set.of())), 0});
        index.put(root, next[0]);
        low.put(root, next[0]++);
        stack.push(root);
        onStack.add(root);
        while (!work.isEmpty()) {
            Object[] frame = work.peek();
            String node = (String) frame[0];
            @SuppressWarnings("unchecked")
            List<String> targets = (List<String>) frame[1];
            int i = (Integer) frame[2];
            if (i < targets.size()) {
                frame[2] = i + 1;
                String target = targets.get(i);
                if (!index.containsKey(target)) {
                    index.put(target, next[0]);
                    low.put(target, next[0]++);
                    stack.push(target);
                    onStack.add(target);
                    work.push(new Object[] {target, List.copyOf(edges.getOrDefault(target, Set.of())), 0});
                } else if (onStack.contains(target)) {
                    low.put(node, Math.min(low.get(node), index.get(target)));
                }
                continue;
            }
            work.pop();
            if (!work.isEmpty()) {
                String parent = (String) work.peek()[0];
                low.put(parent, Math.min(low.get(parent), low.get(node)));
            }
            if (low.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    components.add(component);
                }
            }
        }
    }
}
