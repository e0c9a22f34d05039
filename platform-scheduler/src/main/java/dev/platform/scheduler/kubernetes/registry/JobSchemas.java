package dev.platform.scheduler.kubernetes.registry;

import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.kubernetes.registry.Schemas.array;
import static dev.platform.scheduler.kubernetes.registry.Schemas.bool;
import static dev.platform.scheduler.kubernetes.registry.Schemas.conditions;
import static dev.platform.scheduler.kubernetes.registry.Schemas.dateTime;
import static dev.platform.scheduler.kubernetes.registry.Schemas.fields;
import static dev.platform.scheduler.kubernetes.registry.Schemas.integer;
import static dev.platform.scheduler.kubernetes.registry.Schemas.kind;
import static dev.platform.scheduler.kubernetes.registry.Schemas.labelSelector;
import static dev.platform.scheduler.kubernetes.registry.Schemas.object;
import static dev.platform.scheduler.kubernetes.registry.Schemas.objectMeta;
import static dev.platform.scheduler.kubernetes.registry.Schemas.oneOf;
import static dev.platform.scheduler.kubernetes.registry.Schemas.open;
import static dev.platform.scheduler.kubernetes.registry.Schemas.string;
import static dev.platform.scheduler.kubernetes.registry.Schemas.strings;

/**
 * The schemas of the workload kinds: JobSet (jobset.x-k8s.io/v1alpha2) and batch/v1 Job, with the Job template a
 * JobSet replicates. Below a pod template's {@code spec} the schema stops: the platform passes the pod spec through
 * to the cluster, and its own decoder knows the pod spec's fields ({@code workload-fields.txt}).
 */
public final class JobSchemas {

    private JobSchemas() {
    }

    public static Map<String, Object> jobSet() {
        return kind("JobSet is the Schema for the jobsets API: groups of identical Jobs (replicated jobs) run,"
                + " restarted and finished as one unit, as a multi-slice TPU training run is.", fields(
                "spec", jobSetSpec(),
                "status", jobSetStatus()));
    }

    private static Map<String, Object> jobSetSpec() {
        return object("JobSetSpec defines the desired state of JobSet.", fields(
                "replicatedJobs", array("The groups of Jobs that make the set, each a Job template and how many"
                        + " Jobs to create from it.", object("ReplicatedJob: Jobs created from one template.", fields(
                        "name", string("The name of the replicated job; its Jobs are named"
                                + " <jobset>-<name>-<index>."),
                        "groupName", string("The group this replicated job belongs to; default by default."),
                        "template", jobTemplate("The template of the Jobs to create."),
                        "replicas", integer("How many Jobs to create from the template; 1 by default."),
                        "dependsOn", array("The replicated jobs, listed before this one, that must reach a state"
                                + " before its Jobs are created (one at most). Not together with startupPolicy"
                                + " InOrder.", object("A dependency on an earlier replicated job.", fields(
                                "name", string("The name of the earlier replicated job."),
                                "status", oneOf("Ready: all its Jobs are ready (or finished). Complete: all its"
                                        + " Jobs succeeded.", List.of("Ready", "Complete"))),
                                "name", "status"))),
                        "name", "template")),
                "network", object("The network of the JobSet's pods. Cannot change.", fields(
                        "enableDNSHostnames", bool("Pods can be reached by their host names,"
                                + " <jobset>-<replicatedJob>-<jobIndex>-<podIndex>.<subdomain>."),
                        "subdomain", string("The subdomain, the name of the headless Service of the pods; the"
                                + " JobSet's name by default."),
                        "publishNotReadyAddresses", bool("Whether DNS records of pods are published before they"
                                + " are ready; true by default."))),
                "successPolicy", object("When the JobSet has succeeded; it always has once all its Jobs completed."
                        + " Cannot change.", fields(
                        "operator", oneOf("All: every Job of the target replicated jobs must complete. Any: one"
                                + " of them completing is enough.", List.of("All", "Any")),
                        "targetReplicatedJobs", strings("The replicated jobs the operator applies to; empty: all of"
                                + " them.")),
                        "operator"),
                "failurePolicy", object("When the JobSet has failed and how it restarts; it always fails once a Job"
                        + " fails and no restart is left. Cannot change.", fields(
                        "maxRestarts", integer("How many times the JobSet may be restarted before it fails."),
                        "restartStrategy", oneOf("Recreate (the default): every Job is recreated once its"
                                + " previous pods are gone. BlockingRecreate: no new Job is created before every Job"
                                + " of the previous attempt (and its pods) is deleted. InPlaceRestart: healthy pods"
                                + " restart in place, failed ones are recreated.", List.of("Recreate",
                                "BlockingRecreate", "InPlaceRestart")),
                        "rules", array("Rules evaluated in order on a Job's failure; the first that matches"
                                + " decides, none matching restarts the JobSet.", object("A failure policy rule.",
                                fields(
                                        "name", string("The rule's name; failurePolicyRule<index> by default."),
                                        "action", oneOf("What to do when the rule matches.", List.of("FailJobSet",
                                                "RestartJobSet", "RestartJobSetAndIgnoreMaxRestarts", "RestartJob",
                                                "RestartJobAndIgnoreMaxRestarts")),
                                        "onJobFailureReasons", strings("Job failure reasons the rule matches;"
                                                + " empty: any."),
                                        "onJobFailureMessagePatterns", strings("Regular expressions (RE2) one of"
                                                + " which the failure message must match; empty: any."),
                                        "targetReplicatedJobs", strings("The replicated jobs the rule applies to;"
                                                + " empty: all.")),
                                "name", "action")))),
                "startupPolicy", object("In what order the replicated jobs are started; deprecated in favour of"
                        + " dependsOn. Cannot change.", fields(
                        "startupPolicyOrder", oneOf("AnyOrder: all at once. InOrder: in the order listed, each"
                                + " once the previous one's Jobs are ready.", List.of("AnyOrder", "InOrder"))),
                        "startupPolicyOrder"),
                "suspend", bool("Whether the JobSet's Jobs are suspended. Kueue (and the platform) creates a"
                        + " JobSet suspended and resumes it once it is admitted."),
                "coordinator", object("The pod that coordinates the others: its stable address is added to every"
                        + " Job and pod as the jobset.sigs.k8s.io/coordinator label and annotation.", fields(
                        "replicatedJob", string("The replicated job of the coordinator pod."),
                        "jobIndex", integer("The index of the coordinator's Job in its replicated job."),
                        "podIndex", integer("The completion index of the coordinator pod in its Job.")),
                        "replicatedJob"),
                "managedBy", string("The controller that manages the JobSet; the built-in JobSet controller when"
                        + " absent or jobset.sigs.k8s.io/jobset-controller. Cannot change."),
                "ttlSecondsAfterFinished", integer("Seconds after the JobSet finishes when it may be deleted;"
                        + " unset: never, 0: at once."),
                "volumeClaimPolicies", array("Persistent volume claims shared by the JobSet's pods, created with it.",
                        object("The claims of one policy and when they are deleted.", fields(
                                "templates", array("The claims to create, named <claim>-<jobset>.",
                                        open("A PersistentVolumeClaim; the platform passes it through.")),
                                "retentionPolicy", object("What becomes of the claims.", fields(
                                        "whenDeleted", oneOf("Delete (the default) or Retain the claims once the"
                                                + " JobSet is deleted.", List.of("Delete", "Retain")))))))));
    }

    private static Map<String, Object> jobSetStatus() {
        return object("JobSetStatus defines the observed state of JobSet.", fields(
                "conditions", conditions("The JobSet's conditions: Completed, Failed, Suspended,"
                        + " StartupPolicyInProgress, StartupPolicyCompleted."),
                "restarts", integer("How many times the JobSet was restarted as a whole."),
                "restartsCountTowardsMax", integer("The restarts that count against failurePolicy.maxRestarts."),
                "terminalState", oneOf("Completed or Failed once the JobSet finished; empty before.",
                        List.of("Completed", "Failed")),
                "replicatedJobsStatus", array("The state of the Jobs of each replicated job.", object("The Jobs of"
                        + " one replicated job.", fields(
                        "name", string("The name of the replicated job."),
                        "ready", integer("Jobs whose pods are all ready or completed."),
                        "succeeded", integer("Jobs that completed."),
                        "failed", integer("Jobs that failed."),
                        "active", integer("Jobs with a pod running or pending."),
                        "suspended", integer("Jobs that are suspended.")),
                        "name", "ready", "succeeded", "failed", "active", "suspended"))));
    }

    /** batch/v1 JobTemplateSpec, as a JobSet's replicated job holds it. */
    private static Map<String, Object> jobTemplate(String description) {
        return object(description, fields(
                "metadata", objectMeta("The labels and annotations of the Jobs created from the template."),
                "spec", jobSpec()));
    }

    public static Map<String, Object> job() {
        return kind("Job represents the configuration of a single job: pods run to completion, with retries.",
                fields(
                        "spec", jobSpec(),
                        "status", jobStatus()));
    }

    private static Map<String, Object> jobSpec() {
        return object("JobSpec describes how the job execution will look like.", fields(
                "parallelism", integer("How many pods run at once at most."),
                "completions", integer("How many pods must succeed for the Job to complete; unset: the first"
                        + " success completes it once all pods have ended."),
                "completionMode", oneOf("NonIndexed (the default): any pods' successes count. Indexed: each pod"
                        + " gets an index, 0 to completions-1, and each index must succeed once.",
                        List.of("NonIndexed", "Indexed")),
                "backoffLimit", integer("How many retries before the Job fails; 6 by default."),
                "backoffLimitPerIndex", integer("With Indexed completion, how many retries each index has."),
                "maxFailedIndexes", integer("With backoffLimitPerIndex, how many indexes may fail before the Job"
                        + " fails."),
                "activeDeadlineSeconds", integer("Seconds the Job may run, from its start, before it is"
                        + " terminated."),
                "ttlSecondsAfterFinished", integer("Seconds after the Job finishes when it may be deleted."),
                "suspend", bool("Whether the Job's pods are kept from running. Kueue (and the platform) creates a"
                        + " Job suspended and resumes it once it is admitted."),
                "selector", labelSelector("The pods the Job counts; generated unless manualSelector is true."),
                "manualSelector", bool("Whether the selector is the user's own instead of generated."),
                "podFailurePolicy", podFailurePolicy(),
                "successPolicy", object("When an Indexed Job is declared succeeded before all its indexes"
                        + " succeed.", fields(
                        "rules", array("Rules, any of which met declares the Job succeeded.", object("A success"
                                + " rule.", fields(
                                "succeededIndexes", string("Indexes that must all succeed, as a list of numbers"
                                        + " and ranges (1,3-5)."),
                                "succeededCount", integer("How many of the indexes must succeed."))))),
                        "rules"),
                "podReplacementPolicy", oneOf("When a replacement pod is created: TerminatingOrFailed (the"
                        + " default) or Failed (only once the old pod is fully terminated).",
                        List.of("TerminatingOrFailed", "Failed")),
                "managedBy", string("The controller that manages the Job; the built-in Job controller when absent."),
                "template", podTemplate()),
                "template");
    }

    private static Map<String, Object> podFailurePolicy() {
        return object("How pod failures count toward backoffLimit.", fields(
                "rules", array("Rules evaluated in order on a failed pod; the first that matches decides.",
                        object("A pod failure policy rule: an action and what it matches.", fields(
                                "action", oneOf("FailJob: the Job fails. FailIndex: the pod's index fails."
                                        + " Ignore: the failure does not count. Count: it counts as usual.",
                                        List.of("FailJob", "FailIndex", "Ignore", "Count")),
                                "onExitCodes", object("The container exit codes the rule matches.", fields(
                                        "containerName", string("The container whose exit code is checked; any"
                                                + " when unset."),
                                        "operator", oneOf("Whether the exit code is In or NotIn the values.",
                                                List.of("In", "NotIn")),
                                        "values", array("The exit codes.", Map.of("type", "integer",
                                                "format", "int32"))),
                                        "operator", "values"),
                                "onPodConditions", array("Pod conditions the rule matches, any of them.",
                                        object("A pod condition.", fields(
                                                "type", string("The type of the pod condition (DisruptionTarget)."),
                                                "status", oneOf("The status it must have; True by default.",
                                                        List.of("True", "False", "Unknown"))),
                                                "type"))),
                                "action"))),
                "rules");
    }

    /** core/v1 PodTemplateSpec: its spec is passed through to the cluster. */
    private static Map<String, Object> podTemplate() {
        return object("The pods the Job creates.", fields(
                "metadata", objectMeta("The pods' labels and annotations (kueue.x-k8s.io/queue-name,"
                        + " kueue.x-k8s.io/priority-class...)."),
                "spec", open("The pods' spec (containers, nodeSelector, tolerations, priorityClassName...), as a"
                        + " Pod's spec. The platform passes it through to the cluster; its own decoder refuses"
                        + " fields a pod spec does not have.")));
    }

    private static Map<String, Object> jobStatus() {
        return object("JobStatus represents the current state of a Job.", fields(
                "conditions", array("The Job's conditions: Suspended, Complete, Failed...", object("A Job"
                        + " condition.", fields(
                        "type", string("The type of the condition: Complete, Failed, Suspended, FailureTarget,"
                                + " SuccessCriteriaMet."),
                        "status", oneOf("True, False or Unknown.", List.of("True", "False", "Unknown")),
                        "lastProbeTime", dateTime("When the condition was last checked."),
                        "lastTransitionTime", dateTime("When the condition last changed."),
                        "reason", string("Why the condition last changed, in one word."),
                        "message", string("Why the condition last changed, in words.")),
                        "type", "status")),
                "startTime", dateTime("When the Job started (was resumed)."),
                "completionTime", dateTime("When the Job completed."),
                "active", integer("Pods pending or running."),
                "succeeded", integer("Pods that succeeded."),
                "failed", integer("Pods that failed."),
                "ready", integer("Active pods that are ready.")));
    }
}
