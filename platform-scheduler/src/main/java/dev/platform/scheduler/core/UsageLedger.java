package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.LocalQueueSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Admission fair sharing's memory (Kueue's AfsUsageLedger and the LocalQueue controller's sampling). Per LocalQueue:
 * <ul>
 *   <li>consumed resources, updated as {@code consumed' = (1 - a) * consumed + a * admitted} with
 *       {@code a = 1 - 0.5^(elapsed / halfLife)}, where {@code admitted} is what the LocalQueue's workloads hold now
 *       (summed over flavors) and {@code elapsed} the time since the last update; at every sample (at most once
 *       per sampling interval, all LocalQueues at once) and when entry penalties settle;</li>
 *   <li>entry penalties: a workload admitted through a ClusterQueue under admission fair sharing charges its
 *       LocalQueue {@code entryPenalty * requests} at once, so that the LocalQueue's next workload does not win the
 *       same cycle on stale usage. A penalty settles into the consumed resources at the next cycle, when its
 *       admission is committed (Kueue settles it when the workload turns Admitted), and is dropped if the workload
 *       leaves first (its admission was not committed);</li>
 *   <li>the usage score that orders pending workloads: the sum over resources of
 *       {@code weight(resource) * (consumed + penalties)}, in units of the resource (cpu 2 is 2, not 2000), divided
 *       by the LocalQueue's weight; infinite for a weight of 0, so that such a LocalQueue never goes first.</li>
 * </ul>
 * The score of a LocalQueue is cached until something it depends on changes.
 */
final class UsageLedger {

    private final AdmissionFairSharing settings;
    private final Map<String, Account> accounts = new HashMap<>();
    /** What the workloads of each LocalQueue hold, per resource summed over flavors, in milli-units. */
    private final Map<String, Map<String, Long>> admitted = new HashMap<>();
    /** LocalQueues whose consumed resources or last update changed since {@link #takeChanged()}. */
    private final Set<String> changed = new HashSet<>();
    /** When every LocalQueue is sampled next; null: at the next look. */
    private Instant nextSample;

    UsageLedger(AdmissionFairSharing settings) {
        this.settings = settings;
    }

    private static final class Account {
        final String namespace;
        final String name;
        final Map<String, Double> consumed = new HashMap<>();
        Instant lastUpdate;
        /** Unsettled entry penalties by workload uid, per resource. */
        final Map<String, Map<String, Double>> penalties = new HashMap<>();
        double weight = 1;
        double score = Double.NaN;

        Account(String namespace, String name, Instant lastUpdate) {
            this.namespace = namespace;
            this.name = name;
            this.lastUpdate = lastUpdate;
        }

        Account copy() {
            Account copy = new Account(namespace, name, lastUpdate);
            copy.consumed.putAll(consumed);
            penalties.forEach((uid, p) -> copy.penalties.put(uid, new HashMap<>(p)));
            copy.weight = weight;
            copy.score = score;
            return copy;
        }
    }

    AdmissionFairSharing settings() {
        return settings;
    }

    /** A LocalQueue exists with this weight (new ones start with nothing consumed, as of {@code now}); true if its score changed. */
    boolean localQueue(LocalQueueSpec spec, Instant now) {
        Account account = accounts.get(spec.key());
        if (account == null) {
            account = new Account(spec.namespace(), spec.name(), now);
            account.weight = spec.fairWeight();
            accounts.put(spec.key(), account);
            changed.add(spec.key());
            return true;
        }
        if (account.weight == spec.fairWeight()) {
            return false;
        }
        account.weight = spec.fairWeight();
        account.score = Double.NaN;
        changed.add(spec.key());
        return true;
    }

    /** A LocalQueue was deleted: its history goes with it (Kueue deletes its ledger entry). */
    void removeLocalQueue(String key) {
        accounts.remove(key);
        changed.remove(key);
    }

    /** Restores what was persisted of a LocalQueue; true if its score changed. */
    boolean restore(LocalQueueUsage usage, Instant now) {
        Account account = accounts.computeIfAbsent(usage.key(), k -> new Account(usage.namespace(), usage.name(), now));
        account.consumed.clear();
        account.consumed.putAll(usage.consumedResources());
        account.lastUpdate = usage.lastUpdate();
        account.score = Double.NaN;
        return true;
    }

    /** A workload of {@code localQueueKey} holds {@code usage} (admitted or restored). */
    void admitted(String localQueueKey, Map<FlavorResource, Long> usage) {
        Map<String, Long> held = admitted.computeIfAbsent(localQueueKey, k -> new HashMap<>());
        usage.forEach((fr, amount) -> held.merge(fr.resource(), amount, Long::sum));
    }

    /** A workload of {@code localQueueKey} no longer holds {@code usage}. */
    void released(String localQueueKey, Map<FlavorResource, Long> usage) {
        Map<String, Long> held = admitted.get(localQueueKey);
        if (held == null) {
            return;
        }
        usage.forEach((fr, amount) -> held.merge(fr.resource(), -amount, Long::sum));
        held.values().removeIf(v -> v == 0);
        if (held.isEmpty()) {
            admitted.remove(localQueueKey);
        }
    }

    /** Charges the entry penalty of a workload just admitted with {@code usage}; true if the score changed. */
    boolean chargeEntryPenalty(String localQueueKey, String uid, Map<FlavorResource, Long> usage) {
        Account account = accounts.get(localQueueKey);
        if (account == null) {
            return false;
        }
        double share = settings.entryPenalty();
        Map<String, Double> penalty = new HashMap<>();
        usage.forEach((fr, amount) -> penalty.merge(fr.resource(), share * amount, Double::sum));
        account.penalties.put(uid, penalty);
        account.score = Double.NaN;
        changed.add(localQueueKey);
        return true;
    }

    /** The workload left before its penalty settled (its admission was undone, or it was deleted); true if the score changed. */
    boolean dropEntryPenalty(String localQueueKey, String uid) {
        Account account = accounts.get(localQueueKey);
        if (account == null || account.penalties.remove(uid) == null) {
            return false;
        }
        account.score = Double.NaN;
        changed.add(localQueueKey);
        return true;
    }

    /**
     * Folds the entry penalties of the last cycle's admissions into the consumed resources, updating those
     * LocalQueues' consumed resources as of {@code now}. Returns the LocalQueues settled.
     */
    List<String> settle(Instant now) {
        List<String> settled = new ArrayList<>();
        accounts.forEach((key, account) -> {
            if (account.penalties.isEmpty()) {
                return;
            }
            decay(key, account, now);
            account.penalties.values().forEach(p -> p.forEach((r, v) -> account.consumed.merge(r, v, Double::sum)));
            account.penalties.clear();
            settled.add(key);
        });
        return settled;
    }

    /** Samples every LocalQueue if the sampling interval has passed since the last sample; true when it did. */
    boolean sampleIfDue(Instant now) {
        if (nextSample != null && now.isBefore(nextSample)) {
            return false;
        }
        accounts.forEach((key, account) -> {
            if (settings.usageHalfLifeTime().isZero()) {
                // Kueue: a half-life of zero resets the consumed resources at every sample.
                account.consumed.clear();
                account.lastUpdate = now;
                account.score = Double.NaN;
                changed.add(key);
            } else {
                decay(key, account, now);
            }
        });
        nextSample = now.plus(settings.usageSamplingInterval());
        return true;
    }

    private void decay(String key, Account account, Instant now) {
        Duration elapsed = Duration.between(account.lastUpdate, now);
        double alpha = settings.alpha(elapsed);
        Map<String, Long> held = admitted.getOrDefault(key, Map.of());
        Set<String> resources = new TreeSet<>(account.consumed.keySet());
        resources.addAll(held.keySet());
        for (String resource : resources) {
            double before = account.consumed.getOrDefault(resource, 0.0);
            account.consumed.put(resource, (1 - alpha) * before + alpha * held.getOrDefault(resource, 0L));
        }
        // A clock that went back (another replica's) does not move the last update back.
        if (now.isAfter(account.lastUpdate)) {
            account.lastUpdate = now;
        }
        account.score = Double.NaN;
        changed.add(key);
    }

    /** The usage score that orders a LocalQueue's workloads: lower goes first; 0 for a LocalQueue it does not know. */
    double score(String localQueueKey) {
        Account account = accounts.get(localQueueKey);
        if (account == null) {
            return 0;
        }
        if (Double.isNaN(account.score)) {
            account.score = computeScore(account);
        }
        return account.score;
    }

    private double computeScore(Account account) {
        if (account.weight <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        Map<String, Double> total = new HashMap<>(account.consumed);
        account.penalties.values().forEach(p -> p.forEach((r, v) -> total.merge(r, v, Double::sum)));
        double score = 0;
        for (Map.Entry<String, Double> e : total.entrySet()) {
            score += settings.weight(e.getKey()) * e.getValue() / 1000;
        }
        return score / account.weight;
    }

    /** What is known of a LocalQueue: its consumed resources (penalties not yet settled included) and last update. */
    LocalQueueUsage usage(String localQueueKey) {
        Account account = accounts.get(localQueueKey);
        if (account == null) {
            return null;
        }
        return view(account);
    }

    private static LocalQueueUsage view(Account account) {
        Map<String, Double> consumed = new HashMap<>(account.consumed);
        account.penalties.values().forEach(p -> p.forEach((r, v) -> consumed.merge(r, v, Double::sum)));
        return new LocalQueueUsage(account.namespace, account.name, consumed, account.lastUpdate);
    }

    /**
     * The LocalQueues whose consumed resources or score changed since the last call, as they are now: the consumed
     * resources settled only, the score as the next cycle orders by it.
     */
    List<LocalQueueUsage> takeChanged() {
        List<LocalQueueUsage> out = new ArrayList<>(changed.size());
        for (String key : changed) {
            Account account = accounts.get(key);
            if (account != null) {
                out.add(new LocalQueueUsage(account.namespace, account.name, account.consumed, account.lastUpdate,
                        score(key)));
            }
        }
        changed.clear();
        return out;
    }

    /** An independent copy of the accounts of {@code localQueueKeys} and everything they hold, sampling on the same schedule. */
    UsageLedger copyOf(Collection<String> localQueueKeys) {
        UsageLedger copy = new UsageLedger(settings);
        for (String key : localQueueKeys) {
            Account account = accounts.get(key);
            if (account != null) {
                copy.accounts.put(key, account.copy());
            }
            Map<String, Long> held = admitted.get(key);
            if (held != null) {
                copy.admitted.put(key, new HashMap<>(held));
            }
        }
        copy.nextSample = nextSample;
        return copy;
    }
}
