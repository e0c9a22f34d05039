package dev.platform.scheduler.workload;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ObjectMeta;
import dev.platform.api.manifest.WorkloadManifest;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bug planted for a test, never part of the application: a submission writer that stores the last submission of
 * every group of three or more under another name (its name with {@value #MOVED} appended), inside the group's
 * transaction, and answers it as stored. The request is answered 201 with the uid of the row stored under the other
 * name, so the client believes its workload exists under the name it sent. Only a test context that imports
 * {@link Planted} has it, in place of the real writer.
 */
public class GroupLosingSubmissionWriter extends SubmissionWriter {

    public static final String MOVED = "-moved";

    private final Set<String> moved = ConcurrentHashMap.newKeySet();

    GroupLosingSubmissionWriter(WorkloadService service, WorkloadStatuses statuses, WorkloadTransitions transitions,
                                TransactionTemplate transactions, JdbcClient jdbc, MeterRegistry meters) {
        super(service, statuses, transitions, transactions, jdbc, meters);
    }

    /** The submissions moved so far, as namespace/name as they were sent. */
    public Set<String> moved() {
        return Set.copyOf(moved);
    }

    @Override
    void write(List<Waiting> group) {
        if (group.size() < 3) {
            super.write(group);
            return;
        }
        List<Waiting> planted = new ArrayList<>(group);
        Waiting last = planted.get(planted.size() - 1);
        planted.set(planted.size() - 1, new Waiting(elsewhere(last.checked()), last.answer()));
        moved.add(last.checked().planned().namespacedName());
        super.write(planted);
    }

    private static WorkloadService.Checked elsewhere(WorkloadService.Checked checked) {
        WorkloadService.Planned p = checked.planned();
        WorkloadManifest m = p.manifest();
        WorkloadManifest renamed = new WorkloadManifest(m.kind(), m.apiVersion(),
                new ObjectMeta(m.name() + MOVED, m.namespace(), m.metadata().labels(), m.metadata().annotations()),
                m.queueName(), m.workloadPriorityClassName(), m.priorityClassName(), m.explicitPriority(), m.podSets(),
                m.exclusiveTopology(), m.maxRestarts(), m.restartStrategy(), m.suspend(),
                m.maximumExecutionTimeSeconds(), m.active(), m.manifest());
        DecodedDocument document = checked.document();
        return new WorkloadService.Checked(new DecodedDocument(document.index(), renamed, document.warnings(),
                document.source()), null, new WorkloadService.Planned(renamed, p.clusterQueue(), p.priorityClassName(),
                p.priority(), p.pendingReason(), p.pendingMessage(), p.idempotencyKey(), p.submittedBy(),
                p.checkedAgainst()));
    }

    /** Puts the planted writer in a test context, where the REST submissions go to it rather than to the real one. */
    @TestConfiguration
    public static class Planted {

        @Bean
        @Primary
        GroupLosingSubmissionWriter groupLosingSubmissionWriter(WorkloadService service, WorkloadStatuses statuses,
                                                                WorkloadTransitions transitions,
                                                                TransactionTemplate transactions, JdbcClient jdbc,
                                                                MeterRegistry meters) {
            return new GroupLosingSubmissionWriter(service, statuses, transitions, transactions, jdbc, meters);
        }
    }
}
