package dev.platform.agent.health;

import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.NodeTaint;
import dev.platform.api.agent.GkeLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Fluent node builder for table-driven tests: {@code node("a").pool("p").notReady().build()}. */
final class TestNodes {

    private final String name;
    private final Map<String, String> labels = new HashMap<>();
    private final List<NodeTaint> taints = new ArrayList<>();
    private boolean unschedulable;
    private String ready = "True";
    private int capacity = 4;
    private int allocatable = 4;

    private TestNodes(String name) {
        this.name = name;
        labels.put(GkeLabels.NODE_POOL, "pool");
    }

    static TestNodes node(String name) {
        return new TestNodes(name);
    }

    TestNodes pool(String pool) {
        labels.put(GkeLabels.NODE_POOL, pool);
        return this;
    }

    TestNodes label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    TestNodes ready(String status) {
        ready = status;
        return this;
    }

    TestNodes taint(String key, String effect) {
        taints.add(new NodeTaint(key, null, effect));
        return this;
    }

    TestNodes cordoned() {
        unschedulable = true;
        return this;
    }

    TestNodes chips(int capacity, int allocatable) {
        this.capacity = capacity;
        this.allocatable = allocatable;
        return this;
    }

    ClusterNode build() {
        return new ClusterNode(name, labels, unschedulable, taints, ready, capacity, allocatable);
    }
}
