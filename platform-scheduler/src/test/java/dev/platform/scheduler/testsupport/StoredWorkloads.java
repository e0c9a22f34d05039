package dev.platform.scheduler.testsupport;

import dev.platform.api.reason.PendingReason;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import dev.platform.scheduler.workload.WorkloadTransitions;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/** Pending workloads written as a submission writes them, for the store slices to work on. */
public final class StoredWorkloads {

    private static final ManifestParser PARSER = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    private StoredWorkloads() {
    }

    /** A Job of one pod asking one cpu, parsed as the API parses it. */
    public static WorkloadManifest job(String namespace, String name, String localQueue) {
        return workload(namespace, Manifests.job(name, localQueue, "1", null));
    }

    /** A submission's YAML, parsed as the API parses it. */
    public static WorkloadManifest workload(String namespace, String yaml) {
        return (WorkloadManifest) PARSER.parseWorkload(yaml.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML,
                namespace, FieldValidation.Strict).manifest();
    }

    /** Submits a Pending Job of one cpu in {@code localQueue}, feeding {@code clusterQueue}, at {@code at}. */
    public static UUID submit(WorkloadTransitions transitions, String namespace, String name, String localQueue,
                              String clusterQueue, int priority, Instant at) {
        UUID uid = UUID.randomUUID();
        transitions.lockChanges();
        transitions.submit(uid, job(namespace, name, localQueue), clusterQueue, null, priority, PendingReason.WaitingForQuota,
                "waiting", at, null, null);
        return uid;
    }

    /** An admission of the one pod set onto {@code pools} (none: the workload waits for a cluster). */
    public static String admission(String clusterQueue, String... pools) {
        StringBuilder nodePools = new StringBuilder();
        for (String pool : pools) {
            nodePools.append(nodePools.isEmpty() ? "" : ",").append('"').append(pool).append('"');
        }
        return """
                {"clusterQueue":"%s","podSetAssignments":[{"name":"main","count":1,"flavors":{"cpu":"default"},
                 "resourceUsage":{"cpu":"1"},"nodePools":[%s]}]}""".formatted(clusterQueue, nodePools);
    }
}
