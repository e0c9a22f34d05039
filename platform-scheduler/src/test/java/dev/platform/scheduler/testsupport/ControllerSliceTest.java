package dev.platform.scheduler.testsupport;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import dev.platform.scheduler.cluster.AgentGatewayPorts;
import dev.platform.scheduler.cluster.AgentReportService;
import dev.platform.scheduler.cluster.ClusterDisruptions;
import dev.platform.scheduler.cluster.ClusterQueries;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ConfigurationService;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.config.QueueUsage;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.scheduler.identity.AgentTokens;
import dev.platform.scheduler.identity.ApiTokens;
import dev.platform.scheduler.identity.Users;
import dev.platform.scheduler.kubeconfig.Kubeconfigs;
import dev.platform.scheduler.preemption.LostWorkLedger;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.SubmissionRateLimiter;
import dev.platform.scheduler.workload.SubmissionWriter;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadObjects;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadUpdates;
import dev.platform.scheduler.admissioncheck.AdmissionCheckUpdates;
import dev.platform.scheduler.admissioncheck.ProvisioningRequests;
import dev.platform.web.console.CurrentCaller;
import dev.platform.web.queue.QueueCommands;
import dev.platform.web.queue.QueueQueries;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.mockito.BDDMockito.given;

/**
 * One Spring MVC slice for every REST controller of the scheduler, shared by all controller tests (one
 * context for all of them): the controllers, their problem advice ({@code ApiProblems}), the real request
 * body reader and manifest parser, and the argument resolver that hands a handler its {@link Caller};
 * with one console page (the queue list) and what answers for console pages while the database is away.
 * Their services and stores are mocks. Security's filters are off: who may call what is the
 * authorization matrix's test; here the caller is whoever {@link #callerIs} says (an Admin unless a test
 * says otherwise), or nobody.
 */
@WebMvcTest(useDefaultFilters = false, includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = {
        "dev\\.platform\\.scheduler\\.[a-z]+\\.[A-Za-z]+Controller",
        "dev\\.platform\\.scheduler\\.web\\.(ApiProblems|RequestBodies|ConsoleOutagePage|FieldValidationParameter)",
        "dev\\.platform\\.scheduler\\.config\\.ManifestParsing",
        "dev\\.platform\\.web\\.console\\.CallerArguments",
        "dev\\.platform\\.web\\.queue\\.QueuePageController"}),
        // the Kubernetes API has tests of its own, over the whole application
        excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.platform\\.scheduler\\.kubernetes\\..*"))
@AutoConfigureMockMvc(addFilters = false)
public abstract class ControllerSliceTest implements AgentGatewayPorts {

    protected static final Caller ADMIN = new Caller("root", ClusterRole.Admin, List.of());
    protected static final Caller OPS = new Caller("ops", ClusterRole.Ops, List.of());
    /** An Engineer of team {@code vision}, which owns namespace {@code team-a}. */
    protected static final Caller ENGINEER = new Caller("bob", null,
            List.of(new Caller.Membership("vision", TeamRole.Engineer, Set.of("team-a"))));
    /** The TeamLead of team {@code vision}. */
    protected static final Caller LEAD = new Caller("alice", null,
            List.of(new Caller.Membership("vision", TeamRole.TeamLead, Set.of("team-a"))));

    @Autowired
    protected MockMvc mvc;

    @MockitoBean
    protected dev.platform.scheduler.workload.WorkloadOrigins workloadOrigins;
    @MockitoBean
    protected CurrentCaller currentCaller;
    @MockitoBean
    protected ClusterQueries clusterQueries;
    @MockitoBean
    protected ClusterDisruptions clusterDisruptions;
    @MockitoBean
    protected AgentReportService agentReports;
    @MockitoBean
    protected ConfigStore configStore;
    @MockitoBean
    protected ConfigurationService configuration;
    @MockitoBean
    protected QueueUsage queueUsage;
    @MockitoBean
    protected LocalQueueUsageStore localQueueUsage;
    @MockitoBean
    protected ManifestApplication manifestApplication;
    @MockitoBean
    protected SubmissionRateLimiter submissionRate;
    @MockitoBean
    protected HotswapStore hotswapStore;
    @MockitoBean
    protected AgentTokens agentTokens;
    @MockitoBean
    protected ApiTokens apiTokens;
    @MockitoBean
    protected Users users;
    @MockitoBean
    protected Kubeconfigs kubeconfigs;
    @MockitoBean
    protected PreemptionStore preemptionStore;
    @MockitoBean
    protected LostWorkLedger lostWorkLedger;
    @MockitoBean
    protected WorkloadStore workloadStore;
    @MockitoBean
    protected WorkloadService workloadService;
    @MockitoBean
    protected SubmissionWriter submissionWriter;
    @MockitoBean
    protected WorkloadStatuses workloadStatuses;
    @MockitoBean
    protected WorkloadObjects workloadObjects;
    @MockitoBean
    protected WorkloadUpdates workloadUpdates;
    @MockitoBean
    protected AdmissionCheckUpdates admissionCheckUpdates;
    @MockitoBean
    protected ProvisioningRequests provisioningRequests;
    @MockitoBean
    protected QueueQueries queueQueries;
    @MockitoBean
    protected QueueCommands queueCommands;

    @BeforeEach
    void asAdmin() {
        callerIs(ADMIN);
    }

    /** The caller of the requests that follow. */
    protected void callerIs(Caller caller) {
        given(currentCaller.get()).willReturn(Optional.of(caller));
    }

    /** No authenticated caller: a request rule is missing. */
    protected void noCaller() {
        given(currentCaller.get()).willReturn(Optional.empty());
    }
}
