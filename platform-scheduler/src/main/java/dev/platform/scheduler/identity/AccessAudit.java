package dev.platform.scheduler.identity;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;

/** Appends to the access audit, in the caller's transaction: the change and its record commit together. */
@Component
public class AccessAudit {

    private final AccessAuditRepository entries;
    private final Clock clock;

    AccessAudit(AccessAuditRepository entries, Clock clock) {
        this.entries = entries;
        this.clock = clock;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void record(String actor, AccessAuditEntry.Action action, String subject, String detail) {
        entries.save(new AccessAuditEntry(clock.instant(), actor, action, subject, detail == null ? "" : detail));
    }
}
