package dev.platform.scheduler.identity;

import org.springframework.data.jpa.repository.JpaRepository;

import java.util.List;
import java.util.Optional;

public interface ApiTokenRepository extends JpaRepository<ApiToken, Long> {

    Optional<ApiToken> findByTokenHash(byte[] tokenHash);

    List<ApiToken> findAllByUserNameOrderById(String userName);

    List<ApiToken> findAllByOrderById();
}
