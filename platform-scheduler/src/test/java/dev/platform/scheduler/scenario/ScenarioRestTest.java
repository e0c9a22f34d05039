package dev.platform.scheduler.scenario;

import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.scheduling.SchedulingLoop;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.stream.Stream;

/**
 * The scheduling scenario files (src/test/resources/scenarios) replayed through the REST API
 * against the running application and real PostgreSQL. Files with {@code fairSharing: true} run in
 * {@link FairSharingScenarioRestTest}, files with {@code waitForPodsReady} in {@link LifecycleScenarioRestTest},
 * files with an {@code admissionFairSharing} block in {@link AdmissionFairSharingScenarioRestTest}; files with
 * {@code rest: false} say in a comment why they cannot be replayed.
 *
 * <p>For each file: the tables are emptied; the configuration is posted to {@code /manifests} as
 * Kueue manifests (one WorkloadPriorityClass {@code p-<value>} per priority) and the file's
 * {@code namespaces} as v1 Namespaces with their labels; the {@code admitted}
 * workloads are submitted one at a time as kueue Workloads and each must be Admitted on the
 * file's flavors before the next (this reproduces the admission order; stop policies are applied
 * only afterwards, so that a held queue can start with admitted workloads); the LocalQueues'
 * {@code consumedResources} are then stored as admission fair sharing's memory of them, as of now,
 * and the loop rebuilds its state from it; the {@code pending}
 * workloads are then posted in list order in one {@code /manifests} request, so that they are
 * stored in one transaction and the loop's next cycle sees all of them, as the file's cycle does.
 *
 * <p>The core runner checks the decisions of one cycle; the application keeps cycling. The
 * expectations are translated into an eventual outcome that must be reached and must still hold
 * after another full cycle on a state rebuilt from the database:
 * <ul>
 *   <li>{@code preempted} (exact set): GET /preemptions lists exactly these victim / preemptor /
 *       reason triples, one event per victim, with the real uids and the message (whose
 *       {@code UID: <name>} is replaced by the preemptor's uid); the preemptor ends Admitted,
 *       since in quota-only operation a victim is requeued at once; the victim's end state is not
 *       asserted unless a later step says it.</li>
 *   <li>{@code admitted}: the workload ends Admitted, in the clusterQueue, on the flavors and with
 *       the counts the file gives.</li>
 *   <li>{@code pending}: the workload's timeline (GET .../events) shows the reason and message.
 *       {@code WaitingForPreemptedWorkloads}: it ends Admitted. A decision the next cycle takes
 *       again ({@code inadmissible: false}, or "no longer fits after processing another workload")
 *       says nothing about the end state, so only the timeline is checked. Otherwise it ends
 *       Pending with that {@code pendingReason.code}.</li>
 *   <li>{@code evicted}: the timeline shows an Evicted event (with the reason, when the file gives one) and
 *       the workload is not Admitted.</li>
 *   <li>{@code inactive}: the workload is Pending with {@code active} false, pending reason Deactivated, and
 *       no position in its queue.</li>
 *   <li>Workloads the file starts with that nothing preempts, evicts or finishes stay Admitted.</li>
 *   <li>{@code steps}: steps with no action or only {@code completeEviction} (immediate in
 *       quota-only operation) happen by themselves and fold into the same outcome;
 *       {@code requeueInadmissible} (a node pool healing) has no REST trigger, and its step's
 *       expectations must hold without it; {@code finish} is a DELETE (cancel frees the quota), and the
 *       lifecycle controls are their REST calls (stop and resume of workloads and queues, a merge patch of
 *       the priority-class label); a step with any of them starts a new outcome to reach, and the
 *       preemption events it causes carry the priorities as they were then.</li>
 * </ul>
 * Failures name the scenario file.
 */
@PlatformIntegrationTest
class ScenarioRestTest {

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    SchedulingLoop loop;

    @Autowired
    LocalQueueUsageStore localQueueUsage;

    @TestFactory
    Stream<DynamicTest> scenarios() {
        return replay(ScenarioFile.all().stream()
                .filter(s -> !s.fairSharing() && !s.lifecycle() && !s.admissionFairSharing()));
    }

    Stream<DynamicTest> replay(Stream<ScenarioFile> scenarios) {
        PlatformClient api = new PlatformClient(port);
        return scenarios.filter(ScenarioFile::replayableThroughRest)
                .map(s -> DynamicTest.dynamicTest(s.file(),
                        () -> new ScenarioReplay(s, api, jdbc, loop, localQueueUsage).run()));
    }
}
