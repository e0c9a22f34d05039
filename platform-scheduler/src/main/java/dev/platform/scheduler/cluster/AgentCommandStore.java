package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The agent command outbox: commands are written in the transaction of the
 * decision that causes them, delivered at least once by long poll, acknowledged by id.
 */
@Repository
public class AgentCommandStore {

    /** The most commands one poll answers; the agent asks again for the rest at once. */
    static final int DELIVERY_BATCH = 1000;

    /**
     * A cluster's commands in id order, the START commands queued by {@link #enqueueStarts} with their workload's
     * manifest as stored now (a checkpoint recorded since the admission is in it, as a JobSet started now should
     * carry it); a START whose workload is gone (deleted by history retention long after it ended) goes as stored.
     */
    private static final String DELIVERY = """
            SELECT c.seq, c.type, c.workload_uid, c.namespace, c.name, c.expires_at,
                   (CASE WHEN w.manifest IS NULL THEN c.payload
                         ELSE jsonb_set(c.payload, '{manifest}', w.manifest) END)::text AS payload
            FROM agent_command c
                 LEFT JOIN workload w ON c.type = 'START' AND c.payload -> 'manifest' IS NULL AND w.uid = c.workload_uid
            WHERE c.cluster = ? AND %s ORDER BY c.seq LIMIT ?""";

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final CommandSignals signals;

    AgentCommandStore(JdbcClient jdbc, JsonMapper json, CommandSignals signals) {
        this.jdbc = jdbc;
        this.json = json;
        this.signals = signals;
    }

    /** The cluster has never reported: commands are only for connected clusters. */
    public static class UnknownClusterException extends RuntimeException {
        UnknownClusterException(String cluster) {
            super("cluster " + cluster + " has no agent connected: no command can be queued for it");
        }
    }

    /** Where a workload's JobSet was last sent, as its latest command says. */
    private record LastCommand(UUID workloadUid, String cluster, String namespace, String name) {
    }

    /**
     * The latest command of each workload, unless that command deleted its JobSet: where a JobSet
     * (maybe suspended by an eviction) may remain. One read for many workloads.
     */
    private List<LastCommand> placedJobSets(Collection<UUID> workloadUids) {
        if (workloadUids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT workload_uid, cluster, namespace, name FROM (
                          SELECT DISTINCT ON (workload_uid) workload_uid, cluster, type, namespace, name
                          FROM agent_command WHERE workload_uid = ANY(?) ORDER BY workload_uid, seq DESC) latest
                        WHERE type <> 'DELETE'""")
                .param(workloadUids.toArray(UUID[]::new))
                .query((rs, i) -> new LastCommand(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3),
                        rs.getString(4)))
                .list();
    }

    /**
     * Before a workload's JobSet is started in {@code cluster}: a DELETE to the cluster its last
     * command went to, when that is another one (a workload's JobSet lives in one cluster; an
     * evicted one leaves a suspended JobSet behind, a hotswap may move it). For many workloads at
     * once, in one read. The DELETE and the START run on different agents, so they are not ordered.
     */
    public void deleteElsewhere(Map<UUID, String> clusterByWorkload) {
        placedJobSets(clusterByWorkload.keySet()).stream()
                .filter(last -> !last.cluster().equals(clusterByWorkload.get(last.workloadUid())))
                .forEach(last -> enqueue(last.cluster(), CommandType.DELETE, last.workloadUid(), last.namespace(),
                        last.name(), null, null));
    }

    /**
     * The cluster a workload's JobSet was last sent to, unless its last command deleted it: where a
     * suspended JobSet may remain after an eviction.
     */
    public Optional<String> lastCluster(UUID workloadUid) {
        return placedJobSets(List.of(workloadUid)).stream().map(LastCommand::cluster).findFirst();
    }

    /**
     * Queues a command for a cluster's agent and returns its id. Runs in the caller's transaction
     * (it is not transactional itself, so a failure here does not mark the caller's transaction
     * for rollback behind its back): the command exists if and only if the decision commits, and
     * the polls held open on this replica are answered right after that commit.
     *
     * @param payload   null for STOP and DELETE
     * @param expiresAt null for a command that does not expire; else after the transaction's start
     * @throws UnknownClusterException when no agent ever reported for {@code cluster}
     */
    public long enqueue(String cluster, CommandType type, UUID workloadUid, String namespace, String name,
                        CommandPayload payload, Instant expiresAt) {
        if (jdbc.sql("SELECT count(*) FROM cluster WHERE name = ?").param(cluster).query(Long.class).single() == 0) {
            throw new UnknownClusterException(cluster);
        }
        long id = jdbc.sql("""
                        INSERT INTO agent_command (cluster, type, workload_uid, namespace, name, payload, expires_at)
                        VALUES (?, ?, ?, ?, ?, ?::jsonb, ?) RETURNING seq""")
                .params(cluster, type.name(), workloadUid, namespace, name,
                        payload == null ? null : json.writeValueAsString(payload),
                        expiresAt == null ? null : Timestamp.from(expiresAt))
                .query(Long.class).single();
        signalAfterCommit(cluster);
        return id;
    }

    /**
     * A START command for {@link #enqueueStarts}: its payload without the manifest, which is the workload's as
     * stored when the command is delivered (its {@code manifest} is ignored).
     */
    public record NewStart(String cluster, UUID workloadUid, String namespace, String name, CommandPayload payload) {
    }

    /**
     * Queues START commands as {@link #enqueue} queues one, in one statement and in their order: a cycle that
     * admits thousands of workloads writes their commands in one round trip. The manifest is not copied into
     * them: {@link #deliver} adds the workload's stored one (a copy was half of what such a cycle wrote to the
     * write-ahead log for its commands).
     *
     * @throws UnknownClusterException when no agent ever reported for one of the clusters
     */
    public void enqueueStarts(List<NewStart> starts) {
        if (starts.isEmpty()) {
            return;
        }
        Set<String> clusters = new TreeSet<>();
        starts.forEach(s -> clusters.add(s.cluster()));
        Set<String> known = new TreeSet<>(jdbc.sql("SELECT name FROM cluster WHERE name = ANY(?)")
                .param(clusters.toArray(String[]::new)).query(String.class).list());
        clusters.stream().filter(c -> !known.contains(c)).findFirst().ifPresent(c -> {
            throw new UnknownClusterException(c);
        });
        jdbc.sql("""
                        INSERT INTO agent_command (cluster, type, workload_uid, namespace, name, payload)
                        SELECT d.cluster, 'START', d.uid, d.namespace, d.name, d.payload::jsonb - 'manifest'
                        FROM unnest(:clusters::text[], :uids::uuid[], :namespaces::text[], :names::text[],
                                    :payloads::text[]) WITH ORDINALITY AS d(cluster, uid, namespace, name, payload, n)
                        ORDER BY d.n""")
                .param("clusters", starts.stream().map(NewStart::cluster).toArray(String[]::new))
                .param("uids", starts.stream().map(NewStart::workloadUid).toArray(UUID[]::new))
                .param("namespaces", starts.stream().map(NewStart::namespace).toArray(String[]::new))
                .param("names", starts.stream().map(NewStart::name).toArray(String[]::new))
                .param("payloads", starts.stream().map(s -> json.writeValueAsString(new CommandPayload(null,
                        s.payload().priorityClassName(), s.payload().nodePools(), s.payload().nodeLabels(),
                        s.payload().flavor(), s.payload().tolerations()))).toArray(String[]::new))
                .update();
        clusters.forEach(this::signalAfterCommit);
    }

    /** Answers the polls held open on this replica once the command is committed. */
    private void signalAfterCommit(String cluster) {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    signals.signal(cluster);
                }
            });
        } else {
            signals.signal(cluster);
        }
    }

    /**
     * A copy of command {@code id} with a new expiry, if it is still its workload's latest command
     * and the workload is still admitted in that cluster; empty otherwise.
     */
    public Optional<Long> reissueWhileCurrent(long id, Instant expiresAt) {
        return jdbc.sql("""
                        INSERT INTO agent_command (cluster, type, workload_uid, namespace, name, payload, expires_at)
                        SELECT c.cluster, c.type, c.workload_uid, c.namespace, c.name, c.payload, ?
                        FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE c.seq = ? AND w.state IN ('Admitted', 'Running') AND w.cluster = c.cluster
                          AND NOT EXISTS (SELECT 1 FROM agent_command later
                                          WHERE later.workload_uid = c.workload_uid AND later.seq > c.seq)
                        RETURNING seq, cluster""")
                .params(Timestamp.from(expiresAt), id)
                .query((rs, i) -> Map.entry(rs.getLong(1), rs.getString(2)))
                .optional()
                .map(row -> {
                    signalAfterCommit(row.getValue());
                    return row.getKey();
                });
    }

    /**
     * Commands above {@code after} in id order or, without {@code after}, every command of the
     * cluster with no final result yet (the agent finishes commands of different workloads out of
     * order, so a final higher id says nothing of a lower one); counted as delivered (once more).
     */
    List<AgentCommand> deliver(String cluster, Long after) {
        JdbcClient.StatementSpec query = after != null
                ? jdbc.sql(DELIVERY.formatted("c.seq > ?"))
                        .params(cluster, after, DELIVERY_BATCH)
                // agent_command_unacknowledged_idx (V5) holds exactly these rows
                : jdbc.sql(DELIVERY.formatted("c.state IN ('Pending', 'Delivered')"))
                        .params(cluster, DELIVERY_BATCH);
        List<AgentCommand> commands = query
                .query((rs, i) -> new AgentCommand(rs.getLong("seq"), CommandType.valueOf(rs.getString("type")),
                        rs.getString("workload_uid"), rs.getString("namespace"), rs.getString("name"),
                        ClusterInventoryStore.instant(rs, "expires_at"),
                        rs.getString("payload") == null ? null
                                : json.readValue(rs.getString("payload"), CommandPayload.class)))
                .list();
        if (!commands.isEmpty()) {
            jdbc.sql("""
                            UPDATE agent_command SET attempts = attempts + 1,
                                   state = CASE WHEN state = 'Pending' THEN 'Delivered' ELSE state END
                            WHERE seq = ANY(?)""")
                    .param(commands.stream().map(AgentCommand::id).toArray(Long[]::new)).update();
        }
        return commands;
    }

    /** A command as far as a result needs it, locked until the end of the transaction. */
    record StoredCommand(long id, CommandType type, UUID workloadUid, String state) {

        boolean isFinal() {
            return !state.equals("Pending") && !state.equals("Delivered");
        }
    }

    /**
     * The cluster's commands among {@code ids}, locked until the end of the transaction, in id order:
     * concurrent batches of results lock their common commands in one order, so they never deadlock.
     * Ids of other clusters' commands, or of none, are not in the answer.
     */
    List<StoredCommand> lock(String cluster, Collection<Long> ids) {
        return jdbc.sql("""
                        SELECT seq, type, workload_uid, state FROM agent_command
                        WHERE cluster = ? AND seq = ANY(?) ORDER BY seq FOR UPDATE""")
                .params(cluster, ids.toArray(Long[]::new))
                .query((rs, i) -> new StoredCommand(rs.getLong(1), CommandType.valueOf(rs.getString(2)),
                        rs.getObject(3, UUID.class), rs.getString(4)))
                .list();
    }

    /** Progress of commands not final yet: each one's latest message, in one statement. */
    void recordProgress(Map<Long, String> messageById) {
        if (messageById.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        UPDATE agent_command c SET result_message = u.message
                        FROM unnest(?::bigint[], ?::text[]) AS u(seq, message) WHERE c.seq = u.seq""")
                .params(messageById.keySet().toArray(Long[]::new), messageById.values().toArray(String[]::new))
                .update();
    }

    /** A command's final result as {@link #recordFinal} writes it. */
    record FinalResult(long id, CommandStatus status, String message) {

        String state() {
            return switch (status) {
                case SUCCEEDED -> "Succeeded";
                case FAILED -> "Failed";
                case REFUSED_EXPIRED -> "Refused";
                case RETRYING -> throw new IllegalArgumentException("RETRYING is not final");
            };
        }
    }

    /**
     * Final results: the commands' states, in one statement for the batch. The cluster's last acknowledged
     * command is read from these states ({@link ClusterQueries}), not kept on the cluster row: one row
     * written by every result made an agent's command lanes wait for each other's commits.
     */
    void recordFinal(List<FinalResult> results, Instant now) {
        if (results.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        UPDATE agent_command c SET state = u.state, acked_at = ?, result_message = u.message
                        FROM unnest(?::bigint[], ?::text[], ?::text[]) AS u(seq, state, message) WHERE c.seq = u.seq""")
                .params(Timestamp.from(now), results.stream().map(FinalResult::id).toArray(Long[]::new),
                        results.stream().map(FinalResult::state).toArray(String[]::new),
                        results.stream().map(FinalResult::message).toArray(String[]::new))
                .update();
    }
}
