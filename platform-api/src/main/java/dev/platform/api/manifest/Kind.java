package dev.platform.api.manifest;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The manifest kinds the platform understands, with the API groups each is accepted under. */
public enum Kind {
    RESOURCE_FLAVOR("ResourceFlavor", false, KueueVersions.ALL),
    COHORT("Cohort", false, KueueVersions.WITH_V1ALPHA1),
    CLUSTER_QUEUE("ClusterQueue", false, KueueVersions.ALL),
    LOCAL_QUEUE("LocalQueue", true, KueueVersions.ALL),
    WORKLOAD_PRIORITY_CLASS("WorkloadPriorityClass", false, KueueVersions.ALL),
    /** Kueue's gate on admission, whose state a controller sets per workload. */
    ADMISSION_CHECK("AdmissionCheck", false, KueueVersions.ALL),
    /** The parameters of a {@code kueue.x-k8s.io/provisioning-request} AdmissionCheck. */
    PROVISIONING_REQUEST_CONFIG("ProvisioningRequestConfig", false, KueueVersions.ALL),
    PRIORITY_CLASS("PriorityClass", false, List.of("scheduling.k8s.io/v1")),
    /** Core Kubernetes: a label source for ClusterQueue namespaceSelectors. */
    NAMESPACE("Namespace", false, List.of("v1")),
    /** The platform's own: a team, its namespaces and its members with their roles. */
    TEAM("Team", false, List.of("platform.dev/v1")),
    JOB_SET("JobSet", true, List.of("jobset.x-k8s.io/v1alpha2")),
    JOB("Job", true, List.of("batch/v1")),
    WORKLOAD("Workload", true, KueueVersions.ALL);

    private final String manifestName;
    private final boolean namespaced;
    private final List<String> apiVersions;

    Kind(String manifestName, boolean namespaced, List<String> apiVersions) {
        this.manifestName = manifestName;
        this.namespaced = namespaced;
        this.apiVersions = apiVersions;
    }

    /** The name as written in a manifest's {@code kind} field. */
    public String manifestName() {
        return manifestName;
    }

    public boolean namespaced() {
        return namespaced;
    }

    public List<String> apiVersions() {
        return apiVersions;
    }

    /** Configuration kinds (quota, priority, namespace and team objects) as opposed to workload kinds. */
    public boolean isConfiguration() {
        return this != JOB_SET && this != JOB && this != WORKLOAD;
    }

    private static final class KueueVersions {
        static final List<String> ALL = List.of("kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1beta2");
        /** Cohort objects were introduced in v1alpha1; manifests written then still say so. */
        static final List<String> WITH_V1ALPHA1 =
                List.of("kueue.x-k8s.io/v1alpha1", "kueue.x-k8s.io/v1beta1", "kueue.x-k8s.io/v1beta2");
    }

    public static Optional<Kind> fromManifestName(String name) {
        return Arrays.stream(values()).filter(k -> k.manifestName.equals(name)).findFirst();
    }
}
