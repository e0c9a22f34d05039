package dev.platform.scheduler.identity;

import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;

/**
 * What API tokens and agent tokens share: the SHA-256 hash of the secret (the secret itself is shown
 * once, when issued, and never stored), who issued it, and when it expires or was revoked.
 */
@MappedSuperclass
public abstract class IssuedToken {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "token_hash", nullable = false, updatable = false)
    private byte[] tokenHash;

    @Column(nullable = false)
    private String description;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "created_by", nullable = false, updatable = false)
    private String createdBy;

    @Column(name = "expires_at", updatable = false)
    private Instant expiresAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    @Column(name = "revoked_by")
    private String revokedBy;

    protected IssuedToken() {
    }

    protected IssuedToken(byte[] tokenHash, String description, Instant createdAt, String createdBy,
                          Instant expiresAt) {
        this.tokenHash = tokenHash;
        this.description = description;
        this.createdAt = createdAt;
        this.createdBy = createdBy;
        this.expiresAt = expiresAt;
    }

    public Long id() {
        return id;
    }

    public String description() {
        return description;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public String createdBy() {
        return createdBy;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    public Instant revokedAt() {
        return revokedAt;
    }

    public String revokedBy() {
        return revokedBy;
    }

    /** Neither revoked nor expired at {@code now}. */
    public boolean isValidAt(Instant now) {
        return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
    }

    /** @return false when it was revoked already (the first revocation is kept) */
    boolean revoke(String by, Instant now) {
        if (revokedAt != null) {
            return false;
        }
        revokedAt = now;
        revokedBy = by;
        return true;
    }
}
