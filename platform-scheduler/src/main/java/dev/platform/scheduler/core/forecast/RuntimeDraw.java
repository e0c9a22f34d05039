package dev.platform.scheduler.core.forecast;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Which quantile of its runtime distribution each workload runs for in one simulation: the same fixed quantile for
 * all, or one drawn at random per workload (once per run, so that a workload requeued and admitted again keeps it).
 */
abstract sealed class RuntimeDraw {

    abstract double fraction(String uid);

    static RuntimeDraw fixed(Quantile q) {
        return new Fixed(q.fraction());
    }

    static RuntimeDraw random(SplittableRandom random) {
        return new Random(random);
    }

    private static final class Fixed extends RuntimeDraw {
        private final double fraction;

        Fixed(double fraction) {
            this.fraction = fraction;
        }

        @Override
        double fraction(String uid) {
            return fraction;
        }
    }

    private static final class Random extends RuntimeDraw {
        private final SplittableRandom random;
        private final Map<String, Double> drawn = new HashMap<>();

        Random(SplittableRandom random) {
            this.random = random;
        }

        @Override
        double fraction(String uid) {
            return drawn.computeIfAbsent(uid, k -> random.nextDouble());
        }
    }
}
