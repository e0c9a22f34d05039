package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestDatabase;
import dev.platform.scheduler.workload.GroupLosingSubmissionWriter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fault soak's load and checker against a planted loss inside a group commit
 * ({@link GroupLosingSubmissionWriter}: the last submission of every group of three or more stored under another
 * name, and answered as stored). The soak's concurrent clients make such groups, and its check of the acknowledged
 * submissions reports each one moved, and nothing else. The application is the test's own context (a database of its
 * own), the only one with the planted writer; there is no cluster, so nothing runs and the load's deleting and
 * re-applying clients make the groups.
 */
@Import(GroupLosingSubmissionWriter.Planted.class)
@TestPropertySource(properties = TestDatabase.DATABASE_PROPERTY + "=soak_group_loss")
class SoakCatchesGroupLossTest extends PlatformApplicationTest {

    private static final long SEED = Long.getLong("platform.soak.seed", new Random().nextLong());

    @Autowired
    GroupLosingSubmissionWriter planted;

    @Test
    void theSoaksCheckReportsASubmissionLostInsideAGroupCommit() throws Exception {
        System.out.printf("soak group loss seed %d (replay with -Dplatform.soak.seed=%d)%n", SEED, SEED);
        for (String document : SoakLoad.configuration()) {
            assertThat(api.postYaml("/api/v1/manifests", document).status()).isEqualTo(200);
        }
        SoakLoad load = new SoakLoad(() -> List.of(api), null, jdbc, SEED);
        try (load) {
            load.start();
            await().atMost(Duration.ofMinutes(2)).until(() -> acknowledgedMoved(load.ledger()).size() >= 2);
        }
        SoakLoad.Ledger ledger = load.ledger();
        List<String> moved = acknowledgedMoved(ledger);

        List<String> violations = new SoakInvariants(jdbc, () -> null, Duration.ZERO).lost(() -> ledger);

        assertThat(violations).as("the soak's check of the acknowledged submissions").hasSameSizeAs(moved);
        for (String name : moved) {
            assertThat(violations).anyMatch(v -> v.startsWith("acknowledged submission stored under another name: "
                    + name + " ") && v.endsWith(" is stored as " + name + GroupLosingSubmissionWriter.MOVED));
        }
        // The clients notice only when they touch a moved workload by its name again: nothing holds it.
        assertThat(load.wrongAnswers()).allMatch(answer -> moved.stream().anyMatch(name ->
                answer.startsWith("DELETE " + name + ": 404") || answer.startsWith("PATCH " + name.substring(
                        name.indexOf('/') + 1) + ": 404")));
    }

    /** The acknowledged submissions the planted writer moved, as namespace/name. */
    private List<String> acknowledgedMoved(SoakLoad.Ledger ledger) {
        Set<String> moved = planted.moved();
        return ledger.submissions().stream().map(a -> a.namespace() + "/" + a.name()).filter(moved::contains)
                .distinct().toList();
    }
}
