package dev.platform.scheduler.admissioncheck;

import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import dev.platform.scheduler.core.admissioncheck.CheckState;
import dev.platform.scheduler.core.admissioncheck.CheckedReservations;
import dev.platform.scheduler.workload.AdmissionCheckStates;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The writer of Kueue's {@code status.admissionChecks} (table workload_admission_check) and of the quota
 * reservations that wait for them (workload_check_reservation): one transition method per change.
 */
@Repository
public class WorkloadChecks implements AdmissionCheckStates {

    private final JdbcClient jdbc;

    public WorkloadChecks(JdbcTemplate jdbcTemplate) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /** A workload whose quota was just reserved on a ClusterQueue with {@code checks}. */
    public record Reserved(UUID uid, String clusterQueue, List<String> checks) {
    }

    /** A stored reservation, with its checks in name order and the workload's requeue count. */
    public record Stored(UUID uid, String clusterQueue, Instant reservedAt, Instant admittedAt, int requeueCount,
                         List<AdmissionCheckState> checks) {
    }

    /**
     * Quota reserved: the reservation is recorded (not admitted), and the workload's checks become exactly
     * {@code checks}; those it kept from an earlier reservation are Pending again (Kueue resets them when a workload
     * is evicted, a Retry one counting one more retry), new ones start Pending.
     */
    public void reserve(List<Reserved> reserved, Instant now) {
        for (Reserved r : reserved) {
            jdbc.sql("""
                    INSERT INTO workload_check_reservation (workload_uid, cluster_queue, reserved_at)
                    VALUES (?, ?, ?)
                    ON CONFLICT (workload_uid) DO UPDATE
                    SET cluster_queue = EXCLUDED.cluster_queue, reserved_at = EXCLUDED.reserved_at, admitted_at = NULL""")
                    .params(r.uid(), r.clusterQueue(), Timestamp.from(now)).update();
            List<AdmissionCheckState> kept = checks(List.of(r.uid())).getOrDefault(r.uid(), List.of()).stream()
                    .map(c -> c.resetOnEviction(now)).toList();
            replace(r.uid(), CheckedReservations.sync(kept, r.checks(), now));
        }
    }

    /** The workload's checks become {@code checks}: those not named go, the others are written as given. */
    public void replace(UUID uid, List<AdmissionCheckState> checks) {
        jdbc.sql("DELETE FROM workload_admission_check WHERE workload_uid = ? AND NOT (name = ANY(?))")
                .params(uid, checks.stream().map(AdmissionCheckState::name).toArray(String[]::new)).update();
        for (AdmissionCheckState c : checks) {
            write(uid, c);
        }
    }

    /** One check's new state. */
    public void write(UUID uid, AdmissionCheckState c) {
        jdbc.sql("""
                INSERT INTO workload_admission_check (workload_uid, name, state, message, last_transition_time,
                                                      retry_count, requeue_after_seconds)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (workload_uid, name) DO UPDATE
                SET state = EXCLUDED.state, message = EXCLUDED.message,
                    last_transition_time = EXCLUDED.last_transition_time, retry_count = EXCLUDED.retry_count,
                    requeue_after_seconds = EXCLUDED.requeue_after_seconds""")
                .params(uid, c.name(), c.state().name(), c.message(), Timestamp.from(c.lastTransitionTime()),
                        c.retryCount(), c.requeueAfterSeconds()).update();
    }

    /** Every check Ready: the reservation is an admission from {@code now}. */
    public void admitted(UUID uid, Instant now) {
        jdbc.sql("UPDATE workload_check_reservation SET admitted_at = ? WHERE workload_uid = ? AND admitted_at IS NULL")
                .params(Timestamp.from(now), uid).update();
    }

    /** The quota of these workloads was released: their reservations go, their checks stay for the next one. */
    public void released(Collection<UUID> uids) {
        if (!uids.isEmpty()) {
            jdbc.sql("DELETE FROM workload_check_reservation WHERE workload_uid = ANY(?)")
                    .param(uids.toArray(UUID[]::new)).update();
        }
    }

    /**
     * The reservations of workloads holding quota that something must be done about: not admitted yet, or admitted
     * with a check in Retry or Rejected (capacity revoked under it).
     */
    public List<Stored> unsettled() {
        Map<UUID, Stored> byUid = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT r.workload_uid, r.cluster_queue, r.reserved_at, r.admitted_at, w.requeue_count
                FROM workload_check_reservation r JOIN workload w ON w.uid = r.workload_uid
                WHERE w.state IN ('Admitted', 'Running')
                  AND (r.admitted_at IS NULL OR EXISTS (
                      SELECT 1 FROM workload_admission_check c
                      WHERE c.workload_uid = r.workload_uid AND c.state IN ('Retry', 'Rejected')))
                ORDER BY r.workload_uid""")
                .query((rs, i) -> new Stored(rs.getObject(1, UUID.class), rs.getString(2), instant(rs, 3),
                        instant(rs, 4), rs.getInt(5), List.of()))
                .list().forEach(s -> byUid.put(s.uid(), s));
        Map<UUID, List<AdmissionCheckState>> checks = checks(byUid.keySet());
        return byUid.values().stream().map(s -> new Stored(s.uid(), s.clusterQueue(), s.reservedAt(), s.admittedAt(),
                s.requeueCount(), checks.getOrDefault(s.uid(), List.of()))).toList();
    }

    /** Of {@code uids}, those whose quota is reserved and who wait for their checks: not to be started. */
    @Override
    public Set<UUID> awaitingChecks(Collection<UUID> uids) {
        if (uids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                SELECT workload_uid FROM workload_check_reservation
                WHERE workload_uid = ANY(?) AND admitted_at IS NULL""")
                .param(uids.toArray(UUID[]::new)).query((rs, i) -> rs.getObject(1, UUID.class)).list());
    }

    /** When the reservation of each of {@code uids} that has one was made and, once admitted, admitted. */
    public Map<UUID, Instant[]> reservations(Collection<UUID> uids) {
        Map<UUID, Instant[]> out = new LinkedHashMap<>();
        if (!uids.isEmpty()) {
            jdbc.sql("SELECT workload_uid, reserved_at, admitted_at FROM workload_check_reservation WHERE workload_uid = ANY(?)")
                    .param(uids.toArray(UUID[]::new))
                    .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), new Instant[]{instant(rs, 2), instant(rs, 3)}))
                    .list().forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    /** The checks of each of {@code uids} that has any, in name order. */
    @Override
    public Map<UUID, List<AdmissionCheckState>> checks(Collection<UUID> uids) {
        Map<UUID, List<AdmissionCheckState>> out = new LinkedHashMap<>();
        if (uids.isEmpty()) {
            return out;
        }
        jdbc.sql("""
                SELECT workload_uid, name, state, message, last_transition_time, retry_count, requeue_after_seconds
                FROM workload_admission_check WHERE workload_uid = ANY(?) ORDER BY workload_uid, name""")
                .param(uids.toArray(UUID[]::new))
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), new AdmissionCheckState(rs.getString(2),
                        CheckState.valueOf(rs.getString(3)), rs.getString(4), instant(rs, 5), rs.getInt(6),
                        (Integer) rs.getObject(7))))
                .list().forEach(e -> out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
        return out;
    }

    /**
     * A check of a workload holding quota (reserved or admitted), with the cluster the workload was placed in or
     * adopted from (null when neither) and whether every check was Ready.
     */
    public record HeldCheck(UUID uid, String cluster, AdmissionCheckState check, boolean admitted) {
    }

    /** The checks named {@code names} of every workload holding quota, by workload uid and check name. */
    public List<HeldCheck> held(Collection<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT r.workload_uid, w.cluster, c.name, c.state, c.message, c.last_transition_time, c.retry_count,
                       c.requeue_after_seconds, r.admitted_at IS NOT NULL
                FROM workload_check_reservation r
                JOIN workload w ON w.uid = r.workload_uid
                JOIN workload_admission_check c ON c.workload_uid = r.workload_uid
                WHERE w.state IN ('Admitted', 'Running') AND c.name = ANY(?)
                ORDER BY r.workload_uid, c.name""")
                .param(names.toArray(String[]::new))
                .query((rs, i) -> new HeldCheck(rs.getObject(1, UUID.class), rs.getString(2),
                        new AdmissionCheckState(rs.getString(3), CheckState.valueOf(rs.getString(4)), rs.getString(5),
                                instant(rs, 6), rs.getInt(7), (Integer) rs.getObject(8)), rs.getBoolean(9)))
                .list();
    }

    /** One check of a workload, locked until the transaction ends, so that two updates apply one after the other. */
    public Optional<AdmissionCheckState> lock(UUID uid, String name) {
        return jdbc.sql("""
                SELECT name, state, message, last_transition_time, retry_count, requeue_after_seconds
                FROM workload_admission_check WHERE workload_uid = ? AND name = ? FOR UPDATE""")
                .params(uid, name)
                .query((rs, i) -> new AdmissionCheckState(rs.getString(1), CheckState.valueOf(rs.getString(2)),
                        rs.getString(3), instant(rs, 4), rs.getInt(5), (Integer) rs.getObject(6)))
                .optional();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
