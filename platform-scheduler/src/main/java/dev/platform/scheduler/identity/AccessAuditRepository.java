package dev.platform.scheduler.identity;

import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;

public interface AccessAuditRepository extends JpaRepository<AccessAuditEntry, Long> {

    /** Newest first, from below {@code beforeId} (keyset). */
    List<AccessAuditEntry> findByIdLessThanOrderByIdDesc(long beforeId, Limit limit);
}
