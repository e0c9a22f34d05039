package dev.platform.scheduler.commit;

import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandType;
import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.admissioncheck.WorkloadChecks;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.commit.WorkloadDecision.AfterRelease;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.hotswap.HotswapEvent;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.scheduler.leadership.EpochFence;
import dev.platform.scheduler.preemption.LostWork;
import dev.platform.scheduler.preemption.LostWorkLedger;
import dev.platform.scheduler.preemption.LostWorkMeter;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The one writer of decisions: commits a batch of {@link WorkloadDecision}s in one transaction, in their order,
 * with what follows from each: the workload's transition and timeline ({@link WorkloadTransitions}), the agent
 * commands (a START or RESTART with its payload after an admission, a STOP or DELETE after a release), the
 * preemption audit rows, the hotswap event, and what each eviction lost ({@link LostWorkMeter}: measured for the
 * whole batch before its first write, recorded in the ledger, the counters and the timeline). Runs of decisions of
 * one kind are written in one statement.
 * Every decision is guarded (by its version, or by the agent command it follows); one that finds its workload
 * changed meanwhile does not land and is reported back, and nothing follows from it.
 */
@Component
public class DecisionCommitter {

    /** A stale restart is worse than none: the agent refuses it after this long. */
    public static final Duration RESTART_EXPIRY = Duration.ofMinutes(2);

    private final WorkloadTransitions transitions;
    private final WorkloadStore workloads;
    private final AgentCommandStore commands;
    private final PreemptionStore preemptions;
    private final LostWorkMeter lostWork;
    private final HotswapStore hotswaps;
    private final EpochFence fence;
    private final JsonMapper json;
    private final Clock clock;
    private final WideWaitWriter wideWaits;
    private final WorkloadChecks checks;

    DecisionCommitter(WorkloadTransitions transitions, WorkloadStore workloads, AgentCommandStore commands,
                      PreemptionStore preemptions, HotswapStore hotswaps, EpochFence fence, JsonMapper json,
                      Clock clock, LostWorkMeter lostWork, WideWaitWriter wideWaits, WorkloadChecks checks) {
        this.checks = checks;
        this.wideWaits = wideWaits;
        this.lostWork = lostWork;
        this.transitions = transitions;
        this.workloads = workloads;
        this.commands = commands;
        this.preemptions = preemptions;
        this.hotswaps = hotswaps;
        this.fence = fence;
        this.json = json;
        this.clock = clock;
    }

    /**
     * What landed: the new version of each workload whose decision landed, the workloads whose decision lost a
     * race, when, and the hotswap events recorded.
     */
    public record Committed(Map<UUID, Long> versions, Set<UUID> rejected, Instant at, List<HotswapEvent> hotswaps) {

        public boolean landed(UUID uid) {
            return versions.containsKey(uid);
        }
    }

    /** Commits {@code decisions} as the leader of {@code epoch}; each lands or loses its race alone. */
    @Transactional
    public Committed commit(long epoch, List<? extends WorkloadDecision> decisions) {
        fence.check(epoch);
        return write(epoch, decisions);
    }

    /**
     * Commits {@code decisions} as the leader of {@code epoch}, all or nothing: empty, with nothing written, when
     * any of them lost its race (a priority-only admission does not land without its victims' evictions).
     */
    @Transactional
    public Optional<Committed> commitAll(long epoch, List<? extends WorkloadDecision> decisions) {
        fence.check(epoch);
        Committed committed = write(epoch, decisions);
        if (!committed.rejected().isEmpty()) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        return Optional.of(committed);
    }

    /**
     * Commits decisions that follow an agent's report on whichever replica received it, not the leader's: each is
     * guarded by the command it follows ({@link WorkloadTransitions.Expected.LatestCommand}) instead of the epoch.
     */
    @Transactional
    public Committed commitReported(List<? extends WorkloadDecision> decisions) {
        return write(null, decisions);
    }

    private Committed write(Long epoch, List<? extends WorkloadDecision> decisions) {
        transitions.lockChanges();
        Batch batch = new Batch(epoch, clock.instant());
        batch.measured.putAll(lostWork.of(evicting(decisions), batch.now));
        for (int i = 0; i < decisions.size(); ) {
            Class<?> kind = decisions.get(i).getClass();
            int end = i;
            while (end < decisions.size() && decisions.get(end).getClass() == kind) {
                end++;
            }
            List<? extends WorkloadDecision> run = decisions.subList(i, end);
            if (kind == WorkloadDecision.Admit.class) {
                admit(batch, cast(run));
            } else if (kind == WorkloadDecision.Evict.class) {
                evict(batch, cast(run));
            } else if (kind == WorkloadDecision.Wait.class) {
                recordWaiting(batch, cast(run));
            } else {
                run.forEach(d -> writeOne(batch, d));
            }
            i = end;
        }
        recordLostWork(batch);
        return new Committed(batch.versions, batch.rejected, batch.now, batch.hotswaps);
    }

    /** The workloads the decisions evict, if they land: those whose lost work is measured. */
    private static List<UUID> evicting(List<? extends WorkloadDecision> decisions) {
        List<UUID> evicting = new ArrayList<>();
        for (WorkloadDecision d : decisions) {
            if (d instanceof WorkloadDecision.Evict || d instanceof WorkloadDecision.Requeue
                    || d instanceof WorkloadDecision.Lifecycle) {
                evicting.add(d.uid());
            } else if (d instanceof WorkloadDecision.Hotswap h) {
                h.victims().forEach(v -> evicting.add(v.uid()));
                if (h.fate() instanceof WorkloadDecision.Requeue r) {
                    evicting.add(r.uid());
                }
            }
        }
        return evicting;
    }

    private void writeOne(Batch batch, WorkloadDecision decision) {
        if (decision instanceof WorkloadDecision.Place p) {
            place(batch, p);
        } else if (decision instanceof WorkloadDecision.AdmitByPriority a) {
            admitByPriority(batch, a);
        } else if (decision instanceof WorkloadDecision.Restart r) {
            restart(batch, r);
        } else if (decision instanceof WorkloadDecision.Requeue r) {
            requeue(batch, r);
        } else if (decision instanceof WorkloadDecision.Fail f) {
            fail(batch, f);
        } else if (decision instanceof WorkloadDecision.Lifecycle l) {
            lifecycle(batch, l);
        } else if (decision instanceof WorkloadDecision.Hotswap h) {
            hotswap(batch, h);
        } else if (decision instanceof WorkloadDecision.Admit a) {
            admit(batch, List.of(a));
        } else if (decision instanceof WorkloadDecision.Evict e) {
            evict(batch, List.of(e));
        } else if (decision instanceof WorkloadDecision.Wait w) {
            recordWaiting(batch, List.of(w));
        }
    }

    private void admit(Batch batch, List<WorkloadDecision.Admit> admits) {
        Map<UUID, Long> landed = transitions.admit(admits.stream().map(a -> new WorkloadTransitions.Admitting(a.uid(),
                a.expectedVersion(), a.admission().clusterQueue(), json.writeValueAsString(a.admission()),
                a.placed() == null ? null : a.placed().placement().cluster(), a.quota(), a.admissionChecks())).toList(),
                batch.now, batch.epoch());
        admits.forEach(a -> batch.outcome(a.uid(), Optional.ofNullable(landed.get(a.uid()))));
        checks.reserve(admits.stream().filter(a -> landed.containsKey(a.uid()) && !a.admissionChecks().isEmpty())
                .map(a -> new WorkloadChecks.Reserved(a.uid(), a.admission().clusterQueue(), a.admissionChecks()))
                .toList(), batch.now);
        start(admits.stream().filter(a -> landed.containsKey(a.uid()) && a.placed() != null)
                .map(a -> new Starting(a.subject(), a.placed())).toList());
    }

    private void place(Batch batch, WorkloadDecision.Place p) {
        Optional<Long> version = transitions.place(p.uid(), p.expectedVersion(), json.writeValueAsString(p.admission()),
                p.placed().placement().cluster());
        if (batch.outcome(p.uid(), version)) {
            start(List.of(new Starting(p.subject(), p.placed())));
        }
    }

    private void admitByPriority(Batch batch, WorkloadDecision.AdmitByPriority a) {
        Optional<Long> version = transitions.admitWithoutQuota(a.uid(), a.expectedVersion(),
                json.writeValueAsString(a.admission()), a.placed().placement().cluster(), batch.now, batch.epoch(),
                a.message());
        if (batch.outcome(a.uid(), version)) {
            start(List.of(new Starting(a.subject(), a.placed())));
        }
    }

    private void restart(Batch batch, WorkloadDecision.Restart r) {
        String cluster = r.placed().placement().cluster();
        Optional<Long> version = transitions.restart(r.uid(), r.expectedVersion(),
                json.writeValueAsString(r.admission()), cluster, batch.now, r.message());
        if (!batch.outcome(r.uid(), version)) {
            return;
        }
        // Moved to another cluster (no room left in its own): its JobSet there goes.
        commands.deleteElsewhere(Map.of(r.uid(), cluster));
        String manifest = workloads.manifest(r.uid()).orElseThrow();
        commands.enqueue(cluster, CommandType.RESTART, r.uid(), r.subject().namespace(), r.subject().name(),
                payload(r.subject(), r.placed(), manifest), batch.now.plus(RESTART_EXPIRY));
    }

    private void evict(Batch batch, List<WorkloadDecision.Evict> evictions) {
        List<WorkloadTransitions.Released> released = transitions.evict(evictions.stream()
                .map(e -> new WorkloadTransitions.Eviction(e.uid(), e.expectedVersion(), e.reason(), e.message(),
                        e.preemption() == null ? null : e.preemption().reason())).toList(), batch.now);
        Map<UUID, WorkloadTransitions.Released> landed = new HashMap<>();
        released.forEach(r -> landed.put(r.uid(), r));
        for (WorkloadDecision.Evict e : evictions) {
            WorkloadTransitions.Released r = landed.get(e.uid());
            if (batch.outcome(e.uid(), Optional.ofNullable(r).map(WorkloadTransitions.Released::version))) {
                batch.lost(e.uid(), e.reason(),
                        e.preemption() == null ? e.reason().name() : e.preemption().reason().name());
            }
        }
        released.forEach(r -> afterRelease(r, AfterRelease.STOP));
        List<PreemptionEvent> audit = evictions.stream()
                .filter(e -> e.preemption() != null && landed.containsKey(e.uid()))
                .map(e -> new PreemptionEvent(0, batch.now, e.preemption().reason().name(), e.message(),
                        e.preemption().preemptor(), e.preemption().victim(), batch.lostWorkOf(e.uid())))
                .toList();
        if (!audit.isEmpty()) {
            preemptions.append(audit, batch.epoch());
        }
    }

    private void requeue(Batch batch, WorkloadDecision.Requeue r) {
        Optional<WorkloadTransitions.Released> released = transitions.requeue(r.uid(), r.expected(), batch.now,
                r.reason(), r.message(), r.requeuedMessage());
        if (batch.outcome(r.uid(), released.map(WorkloadTransitions.Released::version))) {
            batch.lost(r.uid(), r.reason(), r.reason().name());
            afterRelease(released.get(), r.then());
            if (r.endsHotswap()) {
                hotswaps.requeued(r.uid());
            }
        }
    }

    private void fail(Batch batch, WorkloadDecision.Fail f) {
        Optional<WorkloadTransitions.Released> failed = transitions.fail(f.uid(), f.expected(), batch.now, f.reason(),
                f.message());
        if (batch.outcome(f.uid(), failed.map(WorkloadTransitions.Released::version))) {
            afterRelease(failed.get(), f.then());
        }
    }

    private void lifecycle(Batch batch, WorkloadDecision.Lifecycle l) {
        Optional<WorkloadTransitions.Released> released;
        EvictionReason eviction;
        String reason;
        if (l.decision() instanceof LifecycleDecision.Requeue r) {
            released = transitions.requeueWithBackoff(l.uid(), l.expected(), batch.now, r.reason().name(),
                    r.message(), r.requeueState().count(), r.requeueState().requeueAt(), l.queueAtEviction());
            eviction = r.reason();
            reason = r.reason().name();
        } else {
            LifecycleDecision.Deactivate d = (LifecycleDecision.Deactivate) l.decision();
            released = transitions.deactivate(l.uid(), l.expected(), batch.now, d.reason().name(),
                    d.reason().evictedReason(), d.message(), extraEvents(l, d, batch.now));
            eviction = EvictionReason.Deactivated;
            reason = d.reason().name();
        }
        if (batch.outcome(l.uid(), released.map(WorkloadTransitions.Released::version))) {
            batch.lost(l.uid(), eviction, reason);
            afterRelease(released.get(), AfterRelease.STOP);
        }
    }

    /** Kueue's warning event of a workload over its maximum execution time, in its timeline. */
    private static List<WorkloadTransitions.NewEvent> extraEvents(WorkloadDecision.Lifecycle l,
                                                                  LifecycleDecision.Deactivate d, Instant now) {
        if (d.reason() != DeactivationReason.MaximumExecutionTimeExceeded) {
            return List.of();
        }
        return List.of(new WorkloadTransitions.NewEvent(l.uid(), now, "MaximumExecutionTimeExceeded", "True",
                "MaximumExecutionTimeExceeded", "The maximum execution time (" + l.maximumExecutionTimeSeconds()
                + "s) exceeded"));
    }

    private void recordWaiting(Batch batch, List<WorkloadDecision.Wait> waits) {
        if (batch.epoch != null && waits.size() >= WideWaitWriter.WIDE
                && TransactionSynchronizationManager.isSynchronizationActive()) {
            // a whole backlog's reasons: several connections write them once the turn's transaction committed
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    wideWaits.write(batch.epoch, batch.now, waits);
                }
            });
            return;
        }
        Map<String, List<WorkloadTransitions.PendingNote>> byCondition = new LinkedHashMap<>();
        waits.forEach(w -> byCondition.computeIfAbsent(w.condition(), c -> new ArrayList<>())
                .add(new WorkloadTransitions.PendingNote(w.uid(), w.reason(), w.message())));
        byCondition.forEach((condition, notes) -> transitions.recordPending(notes, condition, batch.now));
    }

    /** The victims first, then the disrupted workload's fate, then the event that records both. */
    private void hotswap(Batch batch, WorkloadDecision.Hotswap h) {
        evict(batch, h.victims());
        writeOne(batch, h.fate());
        List<HotswapEvent.Party> evicted = h.victims().stream().filter(v -> batch.versions.containsKey(v.uid()))
                .map(v -> v.preemption().victim())
                .map(p -> new HotswapEvent.Party(p.namespace(), p.name(), p.uid(), p.priority())).toList();
        WorkloadDecision.Hotswap.Disruption d = h.disruption();
        String outcome = h.fate() instanceof WorkloadDecision.Restart ? "InProgress"
                : h.fate() instanceof WorkloadDecision.Fail ? "Failed" : "Requeued";
        List<String> replacementPools = h.fate() instanceof WorkloadDecision.Restart r
                ? r.placed().placement().allPools().stream().map(PoolKey::pool).toList() : List.of();
        HotswapEvent event = new HotswapEvent(0, d.cluster(), d.pool(), d.nodes(), d.reason(),
                new HotswapEvent.Party(h.disrupted().namespace(), h.disrupted().name(), h.disrupted().uid(),
                        h.disrupted().priority()),
                evicted, replacementPools, outcome, d.detectedAt(), batch.now, evicted.isEmpty() ? batch.now : null,
                null, null);
        // A later hotswap of the same workload (new victims past blocked ones) takes over the one in progress.
        hotswaps.superseded(h.disrupted().uid());
        long id = hotswaps.record(event);
        batch.hotswaps.add(hotswaps.find(id).orElse(event));
    }

    /**
     * What the batch's evictions lost: the ledger's rows and the counters ({@link LostWorkMeter#record}), and a
     * LostWork entry in each workload's timeline, where its owner looks first.
     */
    private void recordLostWork(Batch batch) {
        if (batch.lost.isEmpty()) {
            return;
        }
        lostWork.record(batch.lost);
        transitions.appendEvents(batch.lost.stream().map(e -> new WorkloadTransitions.NewEvent(e.workload(), e.at(),
                "LostWork", "True", e.reason(), "Lost " + e.lostWork().describe())).toList());
    }

    /** The command that follows a release, to the cluster the workload's pods ran in (none when they ran nowhere). */
    private void afterRelease(WorkloadTransitions.Released r, AfterRelease then) {
        if (r.cluster() == null || then == AfterRelease.NOTHING) {
            return;
        }
        commands.enqueue(r.cluster(), then == AfterRelease.STOP ? CommandType.STOP : CommandType.DELETE, r.uid(),
                r.namespace(), r.name(), null, null);
    }

    /** A workload admitted onto node pools, to be started there. */
    private record Starting(WorkloadDecision.Subject subject, WorkloadDecision.Placed placed) {
    }

    /** START commands for admissions placed in a cluster, in the decision's transaction (outbox). */
    private void start(List<Starting> starting) {
        if (starting.isEmpty()) {
            return;
        }
        Map<UUID, String> clusters = new HashMap<>();
        starting.forEach(s -> clusters.put(s.subject().uid(), s.placed().placement().cluster()));
        commands.deleteElsewhere(clusters);
        // The manifests are copied from the workload rows inside PostgreSQL: none is parsed here.
        commands.enqueueStarts(starting.stream().map(s -> new AgentCommandStore.NewStart(
                s.placed().placement().cluster(), s.subject().uid(), s.subject().namespace(), s.subject().name(),
                payload(s.subject(), s.placed(), null))).toList());
    }

    /**
     * What a START or RESTART carries: the manifest, the priority class, the pools and the flavor's node labels and
     * tolerations.
     */
    private CommandPayload payload(WorkloadDecision.Subject subject, WorkloadDecision.Placed placed, String manifest) {
        return new CommandPayload(manifest == null ? null : json.readTree(manifest), subject.priorityClassName(),
                placed.placement().allPools().stream().map(PoolKey::pool).toList(), placed.nodeLabels(),
                placed.flavor(), placed.tolerations());
    }

    @SuppressWarnings("unchecked")
    private static <T extends WorkloadDecision> List<T> cast(List<? extends WorkloadDecision> run) {
        return (List<T>) run;
    }

    /** One commit's time, epoch and what landed so far. */
    private static final class Batch {
        private final Long epoch;
        private final Instant now;
        private final Map<UUID, Long> versions = new LinkedHashMap<>();
        private final Set<UUID> rejected = new LinkedHashSet<>();
        private final List<HotswapEvent> hotswaps = new ArrayList<>();
        /** What each workload the batch may evict would lose, measured before any of them is. */
        private final Map<UUID, LostWorkMeter.Measured> measured = new HashMap<>();
        /** What the evictions that landed lost, in their order. */
        private final List<LostWorkLedger.Entry> lost = new ArrayList<>();

        Batch(Long epoch, Instant now) {
            this.epoch = epoch;
            this.now = now;
        }

        long epoch() {
            if (epoch == null) {
                throw new IllegalStateException("an admission or preemption is committed by the leader, with its epoch");
            }
            return epoch;
        }

        /** Records the lost work of {@code uid}'s eviction, which landed; nothing when it lost no accelerator time. */
        void lost(UUID uid, EvictionReason eviction, String reason) {
            LostWorkMeter.Measured m = measured.get(uid);
            if (m != null && !m.lostWork().resourceSeconds().isEmpty()) {
                lost.add(m.entry(now, eviction, reason));
            }
        }

        /** What {@code uid}'s eviction lost; null when it held no admission. */
        LostWork lostWorkOf(UUID uid) {
            LostWorkMeter.Measured m = measured.get(uid);
            return m == null ? null : m.lostWork();
        }

        /** Records whether {@code uid}'s decision landed; returns whether it did. */
        boolean outcome(UUID uid, Optional<Long> version) {
            version.ifPresentOrElse(v -> versions.put(uid, v), () -> rejected.add(uid));
            return version.isPresent();
        }
    }
}
