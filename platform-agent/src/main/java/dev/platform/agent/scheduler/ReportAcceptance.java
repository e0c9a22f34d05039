package dev.platform.agent.scheduler;

public enum ReportAcceptance {
    ACCEPTED,
    /** 409: the scheduler has no full inventory from this agent; the next report must be FULL. */
    FULL_REPORT_REQUIRED
}
