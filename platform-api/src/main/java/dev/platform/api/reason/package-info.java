/**
 * The reasons a workload waits, is evicted or is preempted: one vocabulary for the scheduling core, the
 * scheduler's REST API and storage, and the console. Plain enums of the JDK only, so that the pure core may
 * use them.
 */
package dev.platform.api.reason;
