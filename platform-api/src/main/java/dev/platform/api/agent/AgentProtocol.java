package dev.platform.api.agent;

/** Paths, header and object labels that the scheduler and the agent share. */
public final class AgentProtocol {

    /** Every agent endpoint lives under this path. */
    public static final String BASE_PATH = "/api/v1/agent";
    public static final String REPORTS_PATH = "/api/v1/agent/clusters/{cluster}/reports";
    public static final String COMMANDS_PATH = "/api/v1/agent/clusters/{cluster}/commands";
    public static final String COMMAND_RESULT_PATH = "/api/v1/agent/clusters/{cluster}/commands/{id}/result";
    /** Many results in one request, recorded in one transaction: what agents post. */
    public static final String COMMAND_RESULTS_PATH = "/api/v1/agent/clusters/{cluster}/commands/results";
    /**
     * The platform's decisions about the cluster's workloads ({@link AgentDecision}), after an id, in id order: what
     * the agent writes as Events on the JobSets. A scheduler older than this path answers 404.
     */
    public static final String DECISIONS_PATH = "/api/v1/agent/clusters/{cluster}/decisions";
    /** The most decisions one {@link #DECISIONS_PATH} answer lists; the agent asks again for the rest. */
    public static final int MAX_DECISIONS_PER_ANSWER = 500;
    /**
     * The ProvisioningRequests the cluster should hold now (a list of {@link ProvisioningRequestSpec}); an agent
     * asks periodically, and a scheduler without admission checks answers an empty list.
     */
    public static final String PROVISIONING_REQUESTS_PATH = "/api/v1/agent/clusters/{cluster}/provisioningrequests";
    /** Where an agent posts the conditions of every ProvisioningRequest it manages ({@link ProvisioningRequestReport}). */
    public static final String PROVISIONING_REQUEST_STATUS_PATH =
            "/api/v1/agent/clusters/{cluster}/provisioningrequests/status";
    /** The most results one {@link #COMMAND_RESULTS_PATH} request may carry; a larger batch is refused (413). */
    public static final int MAX_RESULTS_PER_BATCH = 1000;

    /**
     * Header on every agent request: a random id of the agent process, new at each start. The scheduler takes one
     * instance at a time as the voice of a cluster; another one's reports and command polls are refused
     * ({@link #ANOTHER_AGENT_TITLE}) while that one is alive. A request without it (an agent of an earlier version)
     * speaks as its report's {@code agentId}.
     */
    public static final String INSTANCE_HEADER = "Platform-Agent-Instance";
    /**
     * The title of the 409 problem that refuses a report or a command poll because another agent instance speaks
     * for the cluster; its detail names that instance, its {@code Retry-After} when it would count as gone.
     */
    public static final String ANOTHER_AGENT_TITLE = "Another agent speaks for this cluster";

    /** Query parameter: answer commands with an id above this; absent = above the last acknowledged one. */
    public static final String AFTER_PARAM = "after";
    /** Query parameter: how long the scheduler may hold the request open when it has no command. */
    public static final String WAIT_SECONDS_PARAM = "waitSeconds";

    /** Set on every JobSet (and through its templates, every pod) the platform materializes. */
    public static final String MANAGED_LABEL = "platform.dev/managed";
    public static final String WORKLOAD_UID_LABEL = "platform.dev/workload-uid";
    /** Annotation on the JobSet: id of the last START/RESTART applied, so a redelivered command has one effect. */
    public static final String LAST_COMMAND_ANNOTATION = "platform.dev/last-command-id";

    public static final String QUEUE_NAME_LABEL = "kueue.x-k8s.io/queue-name";
    /** Set on every ProvisioningRequest and PodTemplate the platform makes, as Kueue sets it on its own. */
    public static final String KUEUE_MANAGED_LABEL = "kueue.x-k8s.io/managed";
    /** On a ProvisioningRequest and its PodTemplates: the admission check it was made for. */
    public static final String ADMISSION_CHECK_LABEL = "platform.dev/admission-check";
    /** On the pods of a workload started on provisioned capacity: the request whose capacity they consume. */
    public static final String CONSUME_PROVISIONING_REQUEST_ANNOTATION = "autoscaling.x-k8s.io/consume-provisioning-request";
    /** On the same pods: the request's class. */
    public static final String PROVISIONING_CLASS_ANNOTATION = "autoscaling.x-k8s.io/provisioning-class-name";
    /** The older cluster autoscalers' names of the two annotations, set too, as Kueue did while both were read. */
    public static final String LEGACY_CONSUME_PROVISIONING_REQUEST_ANNOTATION =
            "cluster-autoscaler.kubernetes.io/consume-provisioning-request";
    public static final String LEGACY_PROVISIONING_CLASS_ANNOTATION =
            "cluster-autoscaler.kubernetes.io/provisioning-class-name";

    private AgentProtocol() {
    }
}
