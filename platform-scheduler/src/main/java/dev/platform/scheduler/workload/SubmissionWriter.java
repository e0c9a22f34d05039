package dev.platform.scheduler.workload;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.WorkloadManifest;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Group commit of REST submissions. Every workload writer holds the writers' lock until it commits, so that the
 * change sequence is drawn in commit order ({@link WorkloadTransitions#lockChanges()}); one submission per
 * transaction therefore commits one after another. Here each request checks its submission first, on its own
 * thread and outside the lock ({@link WorkloadService#check}: the team's priority classes, the queue, what its
 * ClusterQueue could ever give), and a refusal is answered at once. A checked submission waits in a
 * queue; one writer thread takes all that wait as the next group and stores them in one transaction, the lock
 * taken once: the keys and names checked again for the whole group in one statement, then every row with its first
 * timeline entry in another ({@link WorkloadService#storeChecked}), one commit. Each request is answered
 * only after that commit, so an acknowledged submission is durable, and the change feed sees the group's rows in
 * the order they were written. When a statement of the group fails (text PostgreSQL cannot store, the database
 * gone), nothing of it was written, and the group is written again one submission at a time, each with its
 * checks and insert ({@link WorkloadService#submitLocked}) in a savepoint of its own, so a submission that cannot
 * be stored is refused alone and the others commit; a group whose transaction fails that way too answers every
 * one of its requests with the failure, and none of them was written.
 */
@Component
public class SubmissionWriter implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SubmissionWriter.class);

    /** The most submissions one transaction writes; more wait for the next. */
    static final int MAX_GROUP = 256;

    /** Put after the last submission when the application stops: the writer writes what came before and ends. */
    private static final Waiting END = new Waiting(null, null);

    private final WorkloadService service;
    private final WorkloadStatuses statuses;
    private final WorkloadTransitions transitions;
    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;
    private final DistributionSummary groupSizes;
    private final BlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>();
    private final Object admission = new Object();
    private boolean running;
    private Thread writer;

    SubmissionWriter(WorkloadService service, WorkloadStatuses statuses, WorkloadTransitions transitions,
                     TransactionTemplate transactions, JdbcClient jdbc, MeterRegistry meters) {
        this.service = service;
        this.statuses = statuses;
        this.transitions = transitions;
        this.transactions = transactions;
        this.jdbc = jdbc;
        this.groupSizes = DistributionSummary.builder("platform.submission.group.size")
                .description("Submissions written by one transaction of the submission writer, refused ones included")
                .register(meters);
    }

    /** A checked submission and the request waiting for its outcome. */
    record Waiting(WorkloadService.Checked checked, CompletableFuture<Answer> answer) {
        Waiting(WorkloadService.Checked checked) {
            this(checked, new CompletableFuture<>());
        }
    }

    /**
     * What a submission stored or found, and its status as the group's commit left it, read for the whole group
     * at once; null when that read failed after the commit (the caller reads it then).
     */
    public record Answer(WorkloadService.Submitted submitted, WorkloadStatus status) {
    }

    /**
     * Stores a new Pending workload, submitted by {@code submittedBy}, with the next group, and returns once the
     * group has committed; a refusal or a failure is thrown here as {@link WorkloadService#submit} would throw it.
     */
    public Answer submit(DecodedDocument document, String idempotencyKey, String submittedBy) {
        WorkloadService.Checked checked = service.check(document, idempotencyKey, submittedBy);
        if (checked.answer() != null) {
            return new Answer(checked.answer(), null);
        }
        Waiting submission = new Waiting(checked);
        synchronized (admission) {
            if (!running) {
                throw new IllegalStateException("the application is stopping; the submission was not stored");
            }
            waiting.add(submission);
        }
        try {
            return submission.answer().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * Writes one group in one transaction and answers each of its requests after the commit (or with the failure
     * that prevented it).
     */
    void write(List<Waiting> group) {
        List<Object> outcomes;
        try {
            outcomes = transactions.execute(status -> {
                transitions.lockChanges();
                return service.storeChecked(group.stream().map(Waiting::checked).toList(), this::writeOne);
            });
        } catch (RuntimeException failed) {
            log.debug("a group of {} submissions failed together; writing them one by one", group.size(), failed);
            try {
                outcomes = writeOneByOne(group);
            } catch (RuntimeException | Error e) {
                group.forEach(submission -> submission.answer().completeExceptionally(e));
                return;
            }
        } catch (Error e) {
            // answered, and the writer goes on with the next group: a writer that ended would leave every later
            // request waiting
            group.forEach(submission -> submission.answer().completeExceptionally(e));
            return;
        }
        groupSizes.record(group.size());
        Map<UUID, WorkloadStatus> statuses = statusesOf(group, outcomes);
        for (int i = 0; i < group.size(); i++) {
            CompletableFuture<Answer> answer = group.get(i).answer();
            if (outcomes.get(i) instanceof WorkloadService.Submitted submitted) {
                answer.complete(new Answer(submitted, statuses.get(submitted.workload().uid())));
            } else {
                answer.completeExceptionally((RuntimeException) outcomes.get(i));
            }
        }
    }

    /**
     * The statuses of what the group stored or found: those it created as their commit left them
     * ({@link WorkloadStatuses#ofCreated}, one statement), those it found (a retry) read in a few statements; none
     * when they cannot be read (the submissions are stored all the same, and each request reads its own).
     */
    private Map<UUID, WorkloadStatus> statusesOf(List<Waiting> group, List<Object> outcomes) {
        List<WorkloadStatuses.Created> created = new ArrayList<>();
        List<WorkloadRow> found = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            if (outcomes.get(i) instanceof WorkloadService.Submitted submitted) {
                if (submitted.created()) {
                    WorkloadManifest manifest = (WorkloadManifest) group.get(i).checked().document().manifest();
                    created.add(new WorkloadStatuses.Created(submitted.workload(), manifest.metadata().annotations()));
                } else {
                    found.add(submitted.workload());
                }
            }
        }
        Map<UUID, WorkloadStatus> statuses = new HashMap<>();
        try {
            List<WorkloadStatus> read = this.statuses.ofCreated(created);
            for (int i = 0; i < created.size(); i++) {
                statuses.put(created.get(i).row().uid(), read.get(i));
            }
            if (!found.isEmpty()) {
                read = this.statuses.of(found);
                for (int i = 0; i < found.size(); i++) {
                    statuses.put(found.get(i).uid(), read.get(i));
                }
            }
        } catch (RuntimeException e) {
            log.debug("the statuses of a stored group could not be read; each request reads its own", e);
        }
        return statuses;
    }

    /** The group in one transaction, each submission checked and written in a savepoint of its own. */
    private List<Object> writeOneByOne(List<Waiting> group) {
        return transactions.execute(status -> {
            transitions.lockChanges();
            List<Object> outcomes = new ArrayList<>(group.size());
            group.forEach(submission -> outcomes.add(writeOne(submission.checked())));
            return outcomes;
        });
    }

    /** The submission's outcome: what it stored, or the refusal or failure rolled back to its savepoint. */
    private Object writeOne(WorkloadService.Checked submission) {
        jdbc.sql("SAVEPOINT submission").update();
        try {
            WorkloadService.Submitted submitted = service.submitLocked(submission.document(),
                    submission.planned().idempotencyKey(), submission.planned().submittedBy());
            jdbc.sql("RELEASE SAVEPOINT submission").update();
            return submitted;
        } catch (RuntimeException refused) {
            jdbc.sql("ROLLBACK TO SAVEPOINT submission").update();
            return refused;
        }
    }

    private void run() {
        List<Waiting> group = new ArrayList<>(MAX_GROUP);
        boolean ending = false;
        while (!ending) {
            group.clear();
            try {
                group.add(waiting.take());
            } catch (InterruptedException e) {
                refuseFromNowOn(e);
                return;
            }
            waiting.drainTo(group, MAX_GROUP - 1);
            ending = group.removeIf(submission -> submission == END);
            if (!group.isEmpty()) {
                write(group);
            }
        }
    }

    /** Nothing may wait for a writer that has ended: what waits and what comes is refused. */
    private void refuseFromNowOn(InterruptedException e) {
        log.error("the submission writer was interrupted; submissions are refused from now on");
        synchronized (admission) {
            running = false;
        }
        IllegalStateException refusal = new IllegalStateException("the submission writer has ended", e);
        List<Waiting> left = new ArrayList<>();
        waiting.drainTo(left);
        left.stream().filter(submission -> submission != END)
                .forEach(submission -> submission.answer().completeExceptionally(refusal));
        Thread.currentThread().interrupt();
    }

    @Override
    public void start() {
        synchronized (admission) {
            running = true;
            writer = new Thread(this::run, "submission-writer");
            writer.setDaemon(true);
            writer.start();
        }
    }

    /** Writes what is queued, then ends; the web server, stopped before, sends no more. */
    @Override
    public void stop() {
        Thread stopping;
        synchronized (admission) {
            if (!running) {
                return;
            }
            running = false;
            waiting.add(END);
            stopping = writer;
        }
        try {
            stopping.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        synchronized (admission) {
            return running;
        }
    }

    /** Started before the web server and stopped after it, so no request waits on a writer that has ended. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }
}
