package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.config.KubernetesObjectRoundTripTest;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI v3 documents under {@code /k8s/openapi/v3} describe every served kind field by field, as Kueue's,
 * JobSet's and Kubernetes' own schemas do, version by version; every field has a type and a description; the seed's
 * manifests and the objects the platform serves conform to them.
 */
class OpenApiSchemasTest extends PlatformApplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String ADMISSION_CHECKS = """
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ProvisioningRequestConfig
            metadata: {name: dws-queued}
            spec:
              provisioningClassName: queued-provisioning.gke.io
              parameters: {maxRunDurationSeconds: "3600"}
              managedResources: [google.com/tpu]
              retryStrategy: {backoffLimitCount: 2, backoffBaseSeconds: 30, backoffMaxSeconds: 600}
              podSetMergePolicy: IdenticalPodTemplates
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: AdmissionCheck
            metadata: {name: dws}
            spec:
              controllerName: kueue.x-k8s.io/provisioning-request
              parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: dws-queued}
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: AdmissionCheck
            metadata: {name: approval}
            spec: {controllerName: example.com/approval}
            """;

    @Test
    void aClusterQueuesPreemptionIsDescribedFieldByField() {
        Map<String, Object> spec = property(schema("kueue.x-k8s.io", "v1beta2", "ClusterQueue"), "spec");
        Map<String, Object> preemption = property(spec, "preemption");

        assertThat(properties(preemption)).containsOnlyKeys("withinClusterQueue", "reclaimWithinCohort",
                "borrowWithinCohort", "reclaimOutOfCohort");
        assertThat(property(preemption, "withinClusterQueue").get("enum"))
                .isEqualTo(List.of("Never", "LowerPriority", "LowerOrNewerEqualPriority"));
        assertThat(property(preemption, "reclaimWithinCohort").get("enum"))
                .isEqualTo(List.of("Never", "LowerPriority", "Any"));
        assertThat(properties(property(preemption, "borrowWithinCohort")))
                .containsOnlyKeys("policy", "maxPriorityThreshold");
        assertThat(property(property(preemption, "borrowWithinCohort"), "maxPriorityThreshold"))
                .containsEntry("type", "integer");
        assertThat((String) property(preemption, "reclaimOutOfCohort").get("description"))
                .contains("seed", "without effect");
        assertThat(property(spec, "queueingStrategy").get("enum")).isEqualTo(List.of("StrictFIFO", "BestEffortFIFO"));
        assertThat(property(spec, "stopPolicy").get("enum")).isEqualTo(List.of("None", "Hold", "HoldAndDrain"));
    }

    @Test
    void quotasAreIntegersOrStringsAsKubernetesQuantitiesAre() {
        Map<String, Object> spec = property(schema("kueue.x-k8s.io", "v1beta2", "ClusterQueue"), "spec");
        Map<String, Object> resource = items(property(items(property(items(property(spec, "resourceGroups")),
                "flavors")), "resources"));

        for (String quota : List.of("nominalQuota", "borrowingLimit", "lendingLimit")) {
            assertThat(property(resource, quota)).as(quota).containsEntry("x-kubernetes-int-or-string", true)
                    .doesNotContainKey("type");
        }
        assertThat(resource.get("required")).isEqualTo(List.of("name", "nominalQuota"));
    }

    @Test
    void v1beta1NamesTheCohortSpecCohortAndV1beta2SpecCohortName() {
        Map<String, Object> v1beta2 = property(schema("kueue.x-k8s.io", "v1beta2", "ClusterQueue"), "spec");
        Map<String, Object> v1beta1 = property(schema("kueue.x-k8s.io", "v1beta1", "ClusterQueue"), "spec");

        assertThat(properties(v1beta2)).containsKey("cohortName").doesNotContainKeys("cohort", "admissionChecks");
        assertThat(properties(v1beta1)).containsKeys("cohort", "admissionChecks").doesNotContainKey("cohortName");
        assertThat(properties(v1beta1)).containsKey("admissionChecksStrategy");
        assertThat(property(property(v1beta1, "flavorFungibility"), "whenCanBorrow").get("enum"))
                .isEqualTo(List.of("MayStopSearch", "TryNextFlavor", "Borrow"));
        assertThat(property(property(v1beta1, "flavorFungibility"), "whenCanPreempt").get("enum"))
                .isEqualTo(List.of("MayStopSearch", "TryNextFlavor", "Preempt"));
        assertThat(property(property(v1beta2, "flavorFungibility"), "whenCanBorrow").get("enum"))
                .isEqualTo(List.of("MayStopSearch", "TryNextFlavor"));
        Map<String, Object> workloadV1beta1 = property(schema("kueue.x-k8s.io", "v1beta1", "Workload"), "spec");
        Map<String, Object> workloadV1beta2 = property(schema("kueue.x-k8s.io", "v1beta2", "Workload"), "spec");
        assertThat(properties(workloadV1beta1)).containsKeys("priorityClassName", "priorityClassSource")
                .doesNotContainKey("priorityClassRef");
        assertThat(properties(workloadV1beta2)).containsKey("priorityClassRef");
    }

    @Test
    void aJobSetsReplicatedJobsHoldAJobTemplateWhosePodSpecPassesThrough() {
        Map<String, Object> spec = property(schema("jobset.x-k8s.io", "v1alpha2", "JobSet"), "spec");
        Map<String, Object> replicatedJob = items(property(spec, "replicatedJobs"));

        assertThat(properties(spec)).containsKeys("replicatedJobs", "failurePolicy", "successPolicy", "startupPolicy",
                "suspend", "network", "coordinator");
        assertThat(properties(replicatedJob)).containsKeys("name", "replicas", "template", "groupName", "dependsOn");
        Map<String, Object> podTemplate = property(property(property(replicatedJob, "template"), "spec"), "template");
        assertThat(property(podTemplate, "spec")).containsEntry("x-kubernetes-preserve-unknown-fields", true);
        assertThat(property(property(spec, "failurePolicy"), "restartStrategy").get("enum"))
                .isEqualTo(List.of("Recreate", "BlockingRecreate", "InPlaceRestart"));
    }

    @Test
    void aWorkloadsStatusHasKueuesFieldsAndThePlatformsOwn() {
        Map<String, Object> status = property(schema("kueue.x-k8s.io", "v1beta2", "Workload"), "status");

        assertThat(properties(status)).containsKeys("conditions", "admission", "requeueState", "admissionChecks",
                "pendingReason", "positionInClusterQueue", "positionInLocalQueue", "forecast");
        assertThat((String) property(status, "pendingReason").get("description")).startsWith("Not a Kueue field");
    }

    @Test
    void everyFieldOfEveryKindHasATypeAndADescription() {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Map<String, Object>> document : documents().entrySet()) {
            components(document.getValue()).forEach((name, schema) -> checkDescribed(
                    document.getKey() + " " + name, cast(schema), problems));
        }

        assertThat(problems).isEmpty();
    }

    @Test
    void theSeedsManifestsConformToTheServedSchemas() {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String file : List.of("seed-kueue.yaml", "seed-hotswap.yaml", "seed-kueue-and-hotswap.yaml")) {
            for (Object document : new Yaml().loadAll(SeedManifests.read(file))) {
                Map<String, Object> object = cast(document);
                checkConforms(file + " " + object.get("kind"), object, problems);
                checked++;
            }
        }

        assertThat(checked).isEqualTo(13);
        assertThat(problems).isEmpty();
    }

    @Test
    void theObjectsThePlatformServesConformToTheirSchemas() {
        PlatformClient.Response applied = api.postYaml("/api/v1/manifests",
                SeedManifests.read("seed-kueue-and-hotswap.yaml"));
        assertThat(applied.status()).as(applied.body()).isLessThan(300);

        List<String> problems = new ArrayList<>();
        int served = checkServed(List.of("/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
                "/apis/kueue.x-k8s.io/v1beta1/clusterqueues", "/apis/kueue.x-k8s.io/v1beta2/localqueues",
                "/apis/kueue.x-k8s.io/v1beta2/resourceflavors", "/apis/kueue.x-k8s.io/v1beta2/workloads",
                "/apis/kueue.x-k8s.io/v1beta1/workloads", "/apis/jobset.x-k8s.io/v1alpha2/jobsets",
                "/apis/scheduling.k8s.io/v1/priorityclasses", "/api/v1/events"), problems);

        assertThat(served).as("objects served").isGreaterThanOrEqualTo(10);
        assertThat(problems).isEmpty();
    }

    /** Every kind and most of Kueue's fields: cohorts, selectors, fungibility, preemption, limits, a raw Workload. */
    @Test
    void aConfigurationWithMostFieldsConformsAsWrittenAndAsServed() {
        List<String> problems = new ArrayList<>();
        String written = KubernetesObjectRoundTripTest.CONFIGURATION + ADMISSION_CHECKS + "---\n"
                + KubernetesObjectRoundTripTest.WORKLOADS;
        for (Object document : new Yaml().loadAll(written)) {
            Map<String, Object> object = cast(document);
            checkConforms("written " + object.get("kind"), object, problems);
        }
        assertThat(api.postYaml("/api/v1/manifests", KubernetesObjectRoundTripTest.CONFIGURATION + ADMISSION_CHECKS)
                .status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/manifests", KubernetesObjectRoundTripTest.WORKLOADS).status())
                .isEqualTo(200);

        int served = checkServed(List.of("/apis/kueue.x-k8s.io/v1beta2/cohorts",
                "/apis/kueue.x-k8s.io/v1beta1/cohorts", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
                "/apis/kueue.x-k8s.io/v1beta1/clusterqueues",
                "/apis/kueue.x-k8s.io/v1beta1/localqueues", "/apis/kueue.x-k8s.io/v1beta2/resourceflavors",
                "/apis/kueue.x-k8s.io/v1beta2/workloadpriorityclasses", "/apis/kueue.x-k8s.io/v1beta2/workloads",
                "/apis/jobset.x-k8s.io/v1alpha2/jobsets", "/apis/scheduling.k8s.io/v1/priorityclasses",
                "/apis/platform.dev/v1/teams", "/api/v1/namespaces", "/apis/kueue.x-k8s.io/v1beta2/admissionchecks",
                "/apis/kueue.x-k8s.io/v1beta1/provisioningrequestconfigs"), problems);

        assertThat(served).as("objects served").isGreaterThanOrEqualTo(19);
        assertThat(problems).isEmpty();
    }

    /** Checks every object of the lists against its schema; how many there were. */
    private int checkServed(List<String> lists, List<String> problems) {
        int checked = 0;
        for (String list : lists) {
            PlatformClient.Response response = api.get("/k8s" + list);
            assertThat(response.status()).as(list + ": " + response.body()).isEqualTo(200);
            Map<String, Object> body = cast(JSON.readValue(response.body(), Map.class));
            String apiVersion = (String) body.get("apiVersion");
            for (Object item : (List<?>) body.get("items")) {
                Map<String, Object> object = cast(item);
                object.putIfAbsent("apiVersion", apiVersion);
                object.putIfAbsent("kind", ((String) body.get("kind")).replaceFirst("List$", ""));
                checkConforms(list + " " + object.get("kind"), object, problems);
                checked++;
            }
        }
        return checked;
    }

    // --- reading the served documents

    /** Every group version's document, by its path under /k8s/openapi/v3. */
    private Map<String, Map<String, Object>> documents() {
        PlatformClient.Response index = api.get("/k8s/openapi/v3");
        assertThat(index.status()).as(index.body()).isEqualTo(200);
        Map<String, Object> paths = cast(cast(JSON.readValue(index.body(), Map.class)).get("paths"));
        Map<String, Map<String, Object>> documents = new java.util.LinkedHashMap<>();
        paths.forEach((path, entry) -> {
            String url = (String) cast(entry).get("serverRelativeURL");
            PlatformClient.Response document = api.get(url);
            assertThat(document.status()).as(url).isEqualTo(200);
            documents.put(path, cast(JSON.readValue(document.body(), Map.class)));
        });
        return documents;
    }

    private Map<String, Object> document(String group, String version) {
        String path = group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
        Map<String, Object> document = documents().get(path);
        assertThat(document).as("the document of " + path).isNotNull();
        return document;
    }

    private Map<String, Object> schema(String group, String version, String kind) {
        return schemaIn(document(group, version), group, version, kind);
    }

    private static Map<String, Object> schemaIn(Map<String, Object> document, String group, String version,
                                                String kind) {
        return components(document).values().stream().map(OpenApiSchemasTest::cast)
                .filter(s -> s.get("x-kubernetes-group-version-kind") instanceof List<?> gvks
                        && gvks.contains(Map.of("group", group, "version", version, "kind", kind)))
                .findFirst().orElseThrow(() -> new AssertionError("no schema of " + kind + " in " + group + "/"
                        + version));
    }

    private static Map<String, Object> components(Map<String, Object> document) {
        return cast(cast(document.get("components")).get("schemas"));
    }

    private static Map<String, Object> properties(Map<String, Object> schema) {
        return cast(schema.get("properties"));
    }

    private static Map<String, Object> property(Map<String, Object> schema, String name) {
        Object property = schema.get("properties") instanceof Map<?, ?> properties ? properties.get(name)
                : schema.get(name);
        assertThat(property).as("field " + name).isNotNull();
        return cast(property);
    }

    private static Map<String, Object> items(Map<String, Object> array) {
        return cast(array.get("items"));
    }

    // --- what a served schema promises

    /** Every field below {@code schema} has a description and a type (or is a quantity, or ObjectMeta). */
    private static void checkDescribed(String path, Map<String, Object> schema, List<String> problems) {
        if (!(schema.get("description") instanceof String description) || description.isBlank()) {
            problems.add(path + ": no description");
        }
        boolean typed = schema.containsKey("type") || Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))
                || schema.containsKey("allOf");
        if (!typed) {
            problems.add(path + ": no type");
        }
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            properties.forEach((name, field) -> checkDescribed(path + "." + name, cast(field), problems));
        }
        if (schema.get("items") instanceof Map<?, ?> items && items.containsKey("properties")) {
            properties(cast(items)).forEach((name, field) -> checkDescribed(path + "[]." + name, cast(field),
                    problems));
        }
    }

    private void checkConforms(String what, Map<String, Object> object, List<String> problems) {
        String apiVersion = (String) object.get("apiVersion");
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        Map<String, Object> document = document(group, version);
        new Conformance(components(document), problems).check(what, object,
                schemaIn(document, group, version, (String) object.get("kind")));
    }

    /**
     * The structural part of OpenAPI validation as kube-apiserver applies it to a CRD's objects: types, enums,
     * required fields, and no field a schema does not declare unless it preserves unknown fields. A null counts as
     * absent, as Kubernetes prunes it.
     */
    private record Conformance(Map<String, Object> components, List<String> problems) {

        void check(String path, Object value, Map<String, Object> schema) {
            if (value == null) {
                return;
            }
            if (schema.get("allOf") instanceof List<?> allOf) {
                for (Object part : allOf) {
                    String ref = (String) cast(part).get("$ref");
                    check(path, value, cast(components.get(ref.substring(ref.lastIndexOf('/') + 1))));
                }
                return;
            }
            if (Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))) {
                if (!(value instanceof Number || value instanceof String)) {
                    problems.add(path + ": " + value + " is neither an integer nor a string");
                }
                return;
            }
            String type = (String) schema.get("type");
            switch (type) {
                case "object" -> object(path, value, schema);
                case "array" -> {
                    if (value instanceof List<?> list) {
                        for (int i = 0; i < list.size(); i++) {
                            check(path + "[" + i + "]", list.get(i), cast(schema.get("items")));
                        }
                    } else {
                        problems.add(path + ": " + value + " is not an array");
                    }
                }
                case "string" -> {
                    if (!(value instanceof String)) {
                        problems.add(path + ": " + value + " is not a string");
                    } else if (schema.get("enum") instanceof List<?> values && !values.contains(value)) {
                        problems.add(path + ": " + value + " is not one of " + values);
                    }
                }
                case "integer" -> {
                    if (!(value instanceof Integer || value instanceof Long)) {
                        problems.add(path + ": " + value + " is not an integer");
                    }
                }
                case "boolean" -> {
                    if (!(value instanceof Boolean)) {
                        problems.add(path + ": " + value + " is not a boolean");
                    }
                }
                default -> problems.add(path + ": the schema has an unknown type " + type);
            }
        }

        private void object(String path, Object value, Map<String, Object> schema) {
            if (!(value instanceof Map<?, ?> map)) {
                problems.add(path + ": " + value + " is not an object");
                return;
            }
            if (schema.get("required") instanceof List<?> required) {
                required.stream().filter(field -> map.get(field) == null)
                        .forEach(field -> problems.add(path + ": " + field + " is required"));
            }
            if (schema.get("additionalProperties") instanceof Map<?, ?> values) {
                map.forEach((key, item) -> check(path + "." + key, item, cast(values)));
                return;
            }
            boolean open = Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"));
            Map<String, Object> properties = schema.get("properties") instanceof Map<?, ?> p ? cast(p) : Map.of();
            map.forEach((key, item) -> {
                Object field = properties.get(String.valueOf(key));
                if (field != null) {
                    check(path + "." + key, item, cast(field));
                } else if (!open) {
                    problems.add(path + "." + key + ": not a field of the schema");
                }
            });
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object value) {
        return (Map<String, Object>) value;
    }
}
