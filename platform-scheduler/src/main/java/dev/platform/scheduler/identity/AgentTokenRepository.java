package dev.platform.scheduler.identity;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;
import java.util.Optional;

public interface AgentTokenRepository extends JpaRepository<AgentToken, Long> {

    Optional<AgentToken> findByTokenHash(byte[] tokenHash);

    List<AgentToken> findAllByClusterOrderById(String cluster);
}
