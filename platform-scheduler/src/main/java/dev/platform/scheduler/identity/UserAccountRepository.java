package dev.platform.scheduler.identity;

import dev.platform.api.identity.ClusterRole;
import jakarta.persistence.LockModeType;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;

import java.util.List;

public interface UserAccountRepository extends JpaRepository<UserAccount, String> {

    boolean existsByClusterRole(ClusterRole clusterRole);

    /** Locked, so two deletions cannot each leave the other as the last Admin and remove both. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    List<UserAccount> findAllByClusterRole(ClusterRole clusterRole);

    List<UserAccount> findAllByOrderByName();
}
