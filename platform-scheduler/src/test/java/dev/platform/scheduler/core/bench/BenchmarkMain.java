package dev.platform.scheduler.core.bench;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.CommandLineOptionException;

/**
 * Runs the core's JMH benchmarks; arguments are JMH's own (e.g. {@code -f 1 -wi 3 -i 5 AdmissionCycle}).
 * See docs/performance.md for the exact command.
 */
public final class BenchmarkMain {

    private BenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        new Runner(new CommandLineOptions(args)).run();
    }
}
