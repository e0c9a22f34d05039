package dev.platform.scheduler.identity;

import dev.platform.api.identity.ClusterRole;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * A user of the platform. The password hash is in Spring Security's delegating format
 * ({@code {bcrypt}...}), and absent for users who only log in through an identity provider.
 */
@Entity
@Table(name = "app_user")
public class UserAccount {

    @Id
    private String name;

    @Column(name = "password_hash")
    private String passwordHash;

    @Enumerated(EnumType.STRING)
    @Column(name = "cluster_role")
    private ClusterRole clusterRole;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    protected UserAccount() {
    }

    UserAccount(String name, String passwordHash, ClusterRole clusterRole, Instant createdAt, String createdBy) {
        this.name = name;
        this.passwordHash = passwordHash;
        this.clusterRole = clusterRole;
        this.createdAt = createdAt;
        this.createdBy = createdBy;
    }

    void changePassword(String passwordHash) {
        this.passwordHash = passwordHash;
    }

    public String name() {
        return name;
    }

    public String passwordHash() {
        return passwordHash;
    }

    public ClusterRole clusterRole() {
        return clusterRole;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public String createdBy() {
        return createdBy;
    }
}
