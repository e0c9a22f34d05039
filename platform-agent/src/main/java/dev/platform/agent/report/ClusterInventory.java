package dev.platform.agent.report;

import dev.platform.agent.cluster.ClusterEvents;
import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.health.NodePool;
import dev.platform.api.agent.AdoptionSubmission;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.api.manifest.PreemptionAnnotations;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's picture of its cluster, fed by cluster events, and what changed in it since the
 * last report: dirty pools, workloads and submissions are remembered by key and rendered from
 * the current state when the report is built, so a burst of changes to one pool is one entry.
 */
public class ClusterInventory implements ClusterEvents {

    private static final Logger log = LoggerFactory.getLogger(ClusterInventory.class);

    private final Map<String, ClusterNode> nodes = new HashMap<>();
    private final Map<String, ClusterPod> pods = new HashMap<>();
    private final Map<String, ClusterJob> jobSets = new HashMap<>();
    /** Pods and JobSet keys by workload uid: a workload's status is read without a scan of the cluster. */
    private final Map<String, Map<String, ClusterPod>> podsByWorkload = new HashMap<>();
    private final Map<String, Set<String>> jobSetsByWorkload = new HashMap<>();
    private final Set<String> reportedPools = new HashSet<>();

    private final Set<String> dirtyPools = new TreeSet<>();
    private final Set<String> dirtyWorkloads = new TreeSet<>();
    private final Set<String> dirtySubmissions = new TreeSet<>();
    /** Workloads last seen at a key, so a deletion can still be reported against its uid. */
    private final Map<String, WorkloadLocation> workloadLocations = new HashMap<>();

    /** The last-checkpoint annotation that is no time, by JobSet key: each is logged once, not at every report. */
    private final Map<String, String> unreadableCheckpoints = new HashMap<>();

    private record WorkloadLocation(String namespace, String jobSetName) {
    }

    @Override
    public synchronized void nodeChanged(ClusterNode node) {
        ClusterNode old = nodes.put(node.name(), node);
        markPool(node.nodePool());
        if (old != null && !Objects.equals(old.nodePool(), node.nodePool())) {
            markPool(old.nodePool());
        }
    }

    @Override
    public synchronized void nodeRemoved(String name) {
        ClusterNode old = nodes.remove(name);
        if (old != null) {
            markPool(old.nodePool());
        }
    }

    @Override
    public synchronized void podChanged(ClusterPod pod) {
        ClusterPod old = pods.put(pod.key(), pod);
        if (old != null) {
            unindexPod(old);
        }
        podsByWorkload.computeIfAbsent(pod.workloadUid(), uid -> new LinkedHashMap<>()).put(pod.key(), pod);
        markWorkload(pod.workloadUid());
        if (old != null && !Objects.equals(old.workloadUid(), pod.workloadUid())) {
            markWorkload(old.workloadUid());
        }
    }

    @Override
    public synchronized void podRemoved(String namespace, String name) {
        ClusterPod old = pods.remove(namespace + "/" + name);
        if (old != null) {
            unindexPod(old);
            markWorkload(old.workloadUid());
        }
    }

    @Override
    public synchronized void jobChanged(ClusterJob jobSet) {
        ClusterJob old = jobSets.put(jobSet.key(), jobSet);
        if (old != null) {
            unindexJobSet(old);
        }
        if (jobSet.workloadUid() != null) {
            jobSetsByWorkload.computeIfAbsent(jobSet.workloadUid(), uid -> new TreeSet<>()).add(jobSet.key());
        }
        if (jobSet.workloadUid() != null) {
            workloadLocations.put(jobSet.workloadUid(), new WorkloadLocation(jobSet.namespace(), jobSet.name()));
            markWorkload(jobSet.workloadUid());
        }
        if (jobSet.isAdoptable()) {
            dirtySubmissions.add(jobSet.key());
        }
    }

    @Override
    public synchronized void jobRemoved(JobKind kind, String namespace, String name) {
        ClusterJob old = jobSets.remove(kind.key(namespace, name));
        unreadableCheckpoints.remove(kind.key(namespace, name));
        if (old != null) {
            unindexJobSet(old);
        }
        if (old != null && old.workloadUid() != null) {
            markWorkload(old.workloadUid());
        }
    }

    /** Everything known; clears what was dirty. */
    public synchronized ReportContent full() {
        clearDirty();
        List<NodePoolReport> pools = NodePool.aggregate(nodes.values());
        List<String> removed = new ArrayList<>(reportedPools);
        reportedPools.clear();
        pools.forEach(p -> reportedPools.add(p.name()));
        removed.removeAll(reportedPools);
        Set<String> workloads = new TreeSet<>(workloadLocations.keySet());
        pods.values().forEach(p -> workloads.add(p.workloadUid()));
        List<WorkloadStatusReport> statuses = workloads.stream().map(this::workloadStatus).toList();
        forgetDeletedWorkloads(statuses);
        List<AdoptionSubmission> submissions = jobSets.values().stream()
                .filter(ClusterJob::isAdoptable)
                .map(ClusterInventory::submission)
                .toList();
        return new ReportContent(pools, removed.stream().sorted().toList(), statuses, submissions);
    }

    /** What changed since the last report, rendered from the current state; clears it. */
    public synchronized ReportContent takeDelta() {
        List<NodePoolReport> pools = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        List<ClusterNode> all = List.copyOf(nodes.values());
        for (String pool : dirtyPools) {
            List<ClusterNode> members = all.stream().filter(n -> pool.equals(n.nodePool())).toList();
            if (members.isEmpty()) {
                if (reportedPools.remove(pool)) {
                    removed.add(pool);
                }
            } else {
                pools.addAll(NodePool.aggregate(members));
                reportedPools.add(pool);
            }
        }
        List<WorkloadStatusReport> statuses = dirtyWorkloads.stream().map(this::workloadStatus).toList();
        forgetDeletedWorkloads(statuses);
        List<AdoptionSubmission> submissions = dirtySubmissions.stream()
                .map(jobSets::get)
                .filter(j -> j != null && j.isAdoptable())
                .map(ClusterInventory::submission)
                .toList();
        clearDirty();
        return new ReportContent(pools, removed, statuses, submissions);
    }

    public synchronized boolean hasChanges() {
        return !dirtyPools.isEmpty() || !dirtyWorkloads.isEmpty() || !dirtySubmissions.isEmpty();
    }

    /** Active and finished pods of a workload, from the watch events seen so far. */
    public synchronized List<ClusterPod> podsOf(String workloadUid) {
        return List.copyOf(podsByWorkload.getOrDefault(workloadUid, Map.of()).values());
    }

    private void unindexPod(ClusterPod pod) {
        Map<String, ClusterPod> mine = podsByWorkload.get(pod.workloadUid());
        if (mine != null && mine.remove(pod.key()) != null && mine.isEmpty()) {
            podsByWorkload.remove(pod.workloadUid());
        }
    }

    private void unindexJobSet(ClusterJob jobSet) {
        Set<String> keys = jobSet.workloadUid() == null ? null : jobSetsByWorkload.get(jobSet.workloadUid());
        if (keys != null && keys.remove(jobSet.key()) && keys.isEmpty()) {
            jobSetsByWorkload.remove(jobSet.workloadUid());
        }
    }

    private WorkloadStatusReport workloadStatus(String uid) {
        Set<String> keys = jobSetsByWorkload.getOrDefault(uid, Set.of());
        ClusterJob jobSet = keys.isEmpty() ? null : jobSets.get(keys.iterator().next());
        WorkloadLocation location = jobSet != null
                ? new WorkloadLocation(jobSet.namespace(), jobSet.name())
                : workloadLocations.get(uid);
        List<ClusterPod> mine = podsOf(uid);
        int pending = count(mine, "Pending");
        int running = count(mine, "Running");
        int succeeded = count(mine, "Succeeded");
        int failed = count(mine, "Failed");
        Set<String> boundNodes = new TreeSet<>();
        Set<String> pools = new TreeSet<>();
        for (ClusterPod pod : mine) {
            if (pod.nodeName() != null && pod.isActive()) {
                boundNodes.add(pod.nodeName());
                ClusterNode node = nodes.get(pod.nodeName());
                if (node != null && node.nodePool() != null) {
                    pools.add(node.nodePool());
                }
            }
        }
        return new WorkloadStatusReport(uid,
                location == null ? mine.get(0).namespace() : location.namespace(),
                location == null ? null : location.jobSetName(),
                phase(jobSet, mine.isEmpty(), running), pending, running, succeeded, failed,
                List.copyOf(boundNodes), List.copyOf(pools),
                (int) mine.stream().filter(p -> p.ready() && "Running".equals(p.phase())).count(),
                jobSet == null ? null : lastCheckpoint(jobSet));
    }

    /**
     * When the JobSet's training last wrote a checkpoint, as its annotation says; null without one. A value that is
     * no time is left out (the platform keeps what it knew) and logged once, not at every report.
     */
    private Instant lastCheckpoint(ClusterJob jobSet) {
        String text = jobSet.annotations().get(PreemptionAnnotations.LAST_CHECKPOINT);
        if (text == null) {
            return null;
        }
        try {
            return PreemptionAnnotations.checkpointTime(text);
        } catch (DateTimeParseException e) {
            if (!text.equals(unreadableCheckpoints.put(jobSet.key(), text))) {
                log.warn("JobSet {}: annotation {} '{}' is not an RFC 3339 time such as 2026-01-01T12:00:00Z; ignored",
                        jobSet.key(), PreemptionAnnotations.LAST_CHECKPOINT, text);
            }
            return null;
        }
    }

    /** JobSet status wins; without a JobSet controller's verdict, running pods mean Running. */
    static WorkloadPhase phase(ClusterJob jobSet, boolean noPods, int running) {
        if (jobSet == null) {
            return noPods ? WorkloadPhase.DELETED : WorkloadPhase.PENDING;
        }
        if ("Completed".equals(jobSet.terminalState())) {
            return WorkloadPhase.SUCCEEDED;
        }
        if ("Failed".equals(jobSet.terminalState())) {
            return WorkloadPhase.FAILED;
        }
        if (jobSet.suspended()) {
            return WorkloadPhase.SUSPENDED;
        }
        return running > 0 ? WorkloadPhase.RUNNING : WorkloadPhase.PENDING;
    }

    private void forgetDeletedWorkloads(List<WorkloadStatusReport> statuses) {
        statuses.stream()
                .filter(s -> s.phase() == WorkloadPhase.DELETED)
                .forEach(s -> workloadLocations.remove(s.workloadUid()));
    }

    private static int count(List<ClusterPod> pods, String phase) {
        return (int) pods.stream().filter(p -> phase.equals(p.phase())).count();
    }

    private static AdoptionSubmission submission(ClusterJob jobSet) {
        String created = jobSet.manifest().path("metadata").path("creationTimestamp").asString(null);
        return new AdoptionSubmission(jobSet.namespace(), jobSet.name(), jobSet.uid(), jobSet.queueName(),
                created == null ? null : Instant.parse(created), jobSet.manifest());
    }

    private void markPool(String pool) {
        if (pool != null) {
            dirtyPools.add(pool);
        }
    }

    private void markWorkload(String uid) {
        if (uid != null) {
            dirtyWorkloads.add(uid);
        }
    }

    private void clearDirty() {
        dirtyPools.clear();
        dirtyWorkloads.clear();
        dirtySubmissions.clear();
    }
}
