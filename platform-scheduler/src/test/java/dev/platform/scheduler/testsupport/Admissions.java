package dev.platform.scheduler.testsupport;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** What a workload resource of the REST contract says about its admission. */
public final class Admissions {

    private Admissions() {
    }

    /** The node pools of every pod set's assignment, in assignment order; empty when not admitted. */
    public static List<String> nodePools(JsonNode workload) {
        List<String> pools = new ArrayList<>();
        workload.at("/admission/podSetAssignments").valueStream()
                .forEach(a -> a.get("nodePools").valueStream().forEach(p -> pools.add(p.asString())));
        return pools;
    }
}
