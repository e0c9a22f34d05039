package dev.platform.scheduler.retention;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How long history is kept ({@code platform.retention.*}). Unset keeps everything, the default:
 * the audit is the platform's memory, and dropping it is the operator's choice.
 *
 * @param preemptions       age past which preemption audit rows and the lost work of evictions are deleted
 * @param hotswaps          age past which finished hotswap events (not those in progress) are deleted
 * @param workloadEvents    age past which workload timeline entries are deleted
 * @param finishedWorkloads age past which Finished and Failed workloads are deleted with their
 *                          timeline and usage rows; their names become free for new submissions
 * @param batchSize         rows per DELETE: short transactions that never hold many locks
 * @param interval          how often the scheduling leader looks for rows past their retention
 */
@ConfigurationProperties("platform.retention")
public record RetentionProperties(Duration preemptions,
                                  Duration hotswaps,
                                  Duration workloadEvents,
                                  Duration finishedWorkloads,
                                  @DefaultValue("1000") int batchSize,
                                  @DefaultValue("10m") Duration interval) {
}
