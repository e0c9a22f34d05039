package dev.platform.scheduler.identity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;

/** An agent's token: valid on the agent endpoints of its one cluster, nowhere else. */
@Entity
@Table(name = "agent_token")
public class AgentToken extends IssuedToken {

    @Column(nullable = false, updatable = false)
    private String cluster;

    protected AgentToken() {
    }

    AgentToken(byte[] tokenHash, String cluster, String description, Instant createdAt, String createdBy,
               Instant expiresAt) {
        super(tokenHash, description, createdAt, createdBy, expiresAt);
        this.cluster = cluster;
    }

    public String cluster() {
        return cluster;
    }
}
